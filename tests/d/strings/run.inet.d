/*
 * inet_ntoa(), inet_ntoa6(), inet_ntop() of addresses in the traced
 * process, as illumos writes them (its dtrace_dif_subr, not glibc's
 * inet_ntop: the longest run of zero groups becomes "::" even when it is
 * one group, and a v4-mapped or v4-compatible address ends dotted;
 * inet_ntoa6 gives only the dotted part then).  af 2 is IPv4, 10 (Linux)
 * and 26 (illumos) IPv6, any other an illegal operation; a bad address
 * faults at it (here in BEGIN, where the process is dtrace).  Expected values by hand from illumos's code.
 */
/* @setup: ./build.sh */
/* @args: -q -c ./addrs */
provider addrs {
	probe ip(int i, void *a4, void *a6);
};

addrs$target:::ip
/args[0] >= 0/
{
	printf("%d %s %s %s %s %s\n", args[0], inet_ntoa((ipaddr_t *)args[1]),
	    inet_ntop(2, args[1]), inet_ntop(10, args[2]), inet_ntop(26, args[2]),
	    inet_ntoa6((in6_addr_t *)args[2]));
}

BEGIN
{
	printf("%s\n", inet_ntop(99, 0));
}

BEGIN
{
	printf("%s\n", inet_ntoa((ipaddr_t *)8));
}

BEGIN
{
	printf("%s\n", inet_ntoa6(0));
}
