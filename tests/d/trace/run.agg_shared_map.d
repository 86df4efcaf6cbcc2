/*
 * Aggregations of one shape (key and value sizes) share a map: each keeps
 * its own entries through printa of one or several joined, clear(),
 * trunc() and normalize(); sum, min, max and avg share one shape and merge
 * their CPUs' values each its own way; a keyless count shares the shape of
 * a count by an integer.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./trigger 12" */
trig$target:::tick
{
	@c[arg0 % 4] = count();
	@d[arg0 % 3] = count();
	@e = count();
	@s[arg0 % 4] = sum(arg0);
	@mn[arg0 % 4] = min(arg0);
	@mx[arg0 % 4] = max(arg0);
	@a[arg0 % 4] = avg(arg0);
}
trig$target:::done
{
	printa(@c);
	printa(@d);
	printa("%d c=%@d d=%@d\n", @c, @d);
	printa("%d sum %@d min %@d max %@d avg %@d\n", @s, @mn, @mx, @a);
	clear(@c);
	printa("%d c=%@d d=%@d\n", @c, @d);
	trunc(@s, 2);
	printa("%d s=%@d mn=%@d\n", @s, @mn);
	normalize(@mx, 2);
	printa("%d mx/2=%@d\n", @mx);
	trunc(@d);
	printa(@d);
	exit(0);
}
