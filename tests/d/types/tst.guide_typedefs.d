/*
 * The Guide's network and address typedefs: ipaddr_t (and in_addr_t) is a
 * uint32_t, in6_addr_t a struct in6_addr of 16 bytes (s6_addr), caddr_t a
 * char *; so inet_ntoa((ipaddr_t *)p) compiles as the Guide writes it.
 */
BEGIN
{
	a = inet_ntoa((ipaddr_t *)arg0);
	b = inet_ntoa6((in6_addr_t *)arg1);
	c = (caddr_t)arg2;
	this->ip6 = (in6_addr_t *)arg1;
	ok = 1 / (sizeof (ipaddr_t) == 4 && (ipaddr_t)-1 == 4294967295L);
	ok = 1 / (sizeof (in_addr_t) == 4);
	ok = 1 / (sizeof (in6_addr_t) == 16 && sizeof (struct in6_addr) == 16);
	ok = 1 / (offsetof(in6_addr_t, s6_addr) == 0);
	ok = 1 / (sizeof (caddr_t) == 8 && sizeof (*c) == 1);
}
