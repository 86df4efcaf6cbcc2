/*
 * setopt(): quiet switched on while tracing (the probe lines stop), then
 * off with "no" (illumos' yes/no words); an
 * option fixed while tracing (bufsize) and an unknown one are library
 * errors, in illumos' words.
 */
BEGIN
{
	printf("not quiet yet");
}

BEGIN
{
	setopt("quiet");
	setopt("bufsize", "4m");
	setopt("nosuchoption", "1");
}

BEGIN
{
	printf("quiet now\n");
	setopt("quiet", "no");
}

BEGIN
{
	printf("loud again");
	exit(0);
}
