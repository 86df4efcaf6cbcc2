/*
 * AF_INET and AF_INET6, the inline ints of illumos /usr/lib/dtrace/net.d,
 * with Linux's values (AF_INET6 is 26 on illumos, 10 here); inet_ntop()
 * takes both 10 and 26 for IPv6, and any other family is an illegal
 * operation.
 */
/* @args: -q */
/* @exit: 1 */
BEGIN
{
	printf("%d %d %d\n", AF_INET, AF_INET6, sizeof(AF_INET));
	this->a = (uint8_t *)alloca(16);
	this->a[0] = 192;
	this->a[1] = 0;
	this->a[2] = 2;
	this->a[3] = 1;
	printf("[%s]\n", inet_ntop(AF_INET, this->a));
	this->a[0] = 0x20;
	this->a[1] = 0x01;
	this->a[2] = 0x0d;
	this->a[3] = 0xb8;
	this->a[15] = 7;
	printf("[%s] [%s]\n", inet_ntop(AF_INET6, this->a), inet_ntop(26, this->a));
}

BEGIN
{
	printf("[%s]\n", inet_ntop(AF_INET6 + 1, this->a));
}

ERROR
{
	exit(1);
}
