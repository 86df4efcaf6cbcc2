/*
 * inet_ntoa(), inet_ntoa6() and inet_ntop() read scratch memory (what
 * alloca() or copyin() gave), as illumos' dtrace_canload accepts it, here
 * through a variable and through a cast of a pointer plus an offset (a
 * member of a copied-in struct sockaddr_in).  2 is IPv4; 10 (Linux) and 26
 * (illumos) both IPv6.  A process address that cannot be read still faults.
 */
/* @args: -q */
/* @exit: 1 */
BEGIN
{
	p = (ipaddr_t *)alloca(4);
	*p = 0x0100007f;
	printf("[%s]\n", inet_ntoa(p));
	printf("[%s]\n", inet_ntop(2, p));
	this->sa = (uint8_t *)alloca(16);
	this->sa[4] = 10;
	this->sa[5] = 0;
	this->sa[6] = 0;
	this->sa[7] = 255;
	printf("[%s]\n", inet_ntoa((ipaddr_t *)(this->sa + 4)));
	this->b = (uint8_t *)alloca(16);
	this->b[0] = 0xfe;
	this->b[1] = 0x80;
	this->b[15] = 1;
	printf("[%s] [%s]\n", inet_ntop(10, this->b), inet_ntop(26, (in6_addr_t *)this->b));
	this->m = (uint8_t *)alloca(16);
	this->m[10] = 0xff;
	this->m[11] = 0xff;
	this->m[12] = 192;
	this->m[13] = 168;
	this->m[14] = 1;
	this->m[15] = 2;
	printf("[%s] [%s]\n", inet_ntoa6((in6_addr_t *)this->m), inet_ntop(10, this->m));
}

BEGIN
{
	printf("[%s]\n", inet_ntoa((ipaddr_t *)8));
}

ERROR
{
	exit(1);
}
