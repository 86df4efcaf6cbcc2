/*
 * %I and %P (illumos pfprint_inetaddr and pfprint_port): an address in a
 * string prints as its host name when the resolver has one (127.0.0.1 is
 * localhost in /etc/hosts), anything else as the string itself (not an
 * address, empty, with a ':' but no IPv6 address); a uint16_t port as its
 * service in /etc/services (22 ssh, 53 domain, 80 http), else its number
 * (0, 65535).  Width, '-' and precision apply to the name.  printa( )
 * formats aggregation keys with them (and %lc) as printf( ) does values.
 */
/* @args: -q */
BEGIN
{
	printf("[%I] [%I] [%I] [%I] [%12I] [%-12I] [%.4I]\n", "127.0.0.1", "not an address",
	    "", "a:b:c", "127.0.0.1", "1.2.3", "127.0.0.1");
	this->a = "127.0.0.1";
	printf("[%I]\n", this->a);
	printf("[%P] [%P] [%P] [%P] [%P] [%8P] [%-8P] [%.2P]\n", (uint16_t)22, (uint16_t)53,
	    (uint16_t)80, (uint16_t)0, (uint16_t)65535, (uint16_t)22, (uint16_t)80,
	    (uint16_t)80);
	@keys[65, (uint16_t)80, "127.0.0.1"] = count();
	printa("printa: %lc %P %I %@d\n", @keys);
	exit(0);
}
