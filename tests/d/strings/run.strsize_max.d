/*
 * strsize above what our strings can hold (4096) is 4096, as illumos
 * dtrace_state_go clamps it (to dtrace_strsize_max, 65536 there: a string
 * of 8192 bytes would be whole on illumos; here it holds 4095).
 */
#pragma D option quiet
#pragma D option strsize=16384

BEGIN
{
	this->s = "abcdefgh";
	this->s = strjoin(this->s, this->s);
	this->s = strjoin(this->s, this->s);
	this->s = strjoin(this->s, this->s);
	this->s = strjoin(this->s, this->s);
	this->s = strjoin(this->s, this->s);
	this->s = strjoin(this->s, this->s);
	this->s = strjoin(this->s, this->s);
	this->s = strjoin(this->s, this->s);
	this->s = strjoin(this->s, this->s);
	this->s = strjoin(this->s, this->s);
	printf("%d %s\n", strlen(this->s), substr(this->s, 4088));
	exit(0);
}
