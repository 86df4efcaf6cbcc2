/* printa with and without formats, several aggregations, trunc, clear, normalize. */
/* @setup: ./build.sh */
/* @args: -q -c "./trigger 9" */
trig$target:::tick
{
	@n[copyinstr(arg1)] = count();
	@s[copyinstr(arg1)] = sum(arg0);
	@q[copyinstr(arg1)] = quantize(arg0);
	@t[arg0] = sum(arg2);
}
trig$target:::done
{
	printa(@n);
	printa("%s has %@d ticks\n", @n);
	printa("%-6s %@4d %@4d\n", @n, @s);
	printa("%s:%@d\n", @q);
	trunc(@t, 3);
	printa("top %d: %@d\n", @t);
	trunc(@t, -1);
	printa("bottom %d: %@d\n", @t);
	normalize(@s, 2);
	printa("%s half %@d\n", @s);
	denormalize(@s);
	printa("%s whole %@d\n", @s);
	clear(@n);
	printa(@n);
	trunc(@t);
	printa(@t);
}
