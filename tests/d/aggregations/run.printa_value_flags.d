/*
 * '@' is a flag among the others, as in illumos's dt_printf_create: a width
 * after it (%@10d), flags before it (%-@x).
 */
#pragma D option quiet

BEGIN
{
	@a["x"] = sum(42);
	printa("%s %@10d|\n", @a);
	printa("%s|%-@6x|\n", @a);
	exit(0);
}
