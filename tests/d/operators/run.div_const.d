/*
 * Division and modulo by a positive integer literal use BPF's immediate
 * form without a zero check (dt_cg.c arith); the results are C's, as
 * DIF_OP_SDIV/UDIV/SREM/UREM give: signed operands truncate toward zero,
 * the remainder has the dividend's sign; an unsigned dividend divides
 * unsigned.  Divisors past INT32_MAX and negative ones take the register
 * form, checked for zero.
 */
#pragma D option quiet

BEGIN
{
	x = -7;
	u = (uint64_t)-7;
	y = 0x7fffffff;
	printf("%d %d %d %d\n", x / 2, x % 2, x / 7, x % 7);
	printf("%d %d\n", (x * 1000) / 3, (x * 1000) % 3);
	printf("%u %u\n", u / 2, u % 10);
	printf("%d %d %d\n", y / 2147483647, (y + 1) / 2147483647, (y + 1) % 2147483647);
	printf("%d %d\n", (y * 4) / 4294967296, (y * 4) % 4294967296);
	printf("%d %d\n", x / -2, x % -2);
	printf("%d %d\n", 1 / 1, x / 1);
	exit(0);
}
