/*
 * aggsize is one budget for every aggregation, as illumos's buffer per
 * CPU: the aggregations of a shape share a map, which holds its share of
 * aggsize (the shape's aggregations over all of them), an entry costing
 * its keys and its value.  Here 400 bytes: @a and @b (8-byte key, 8-byte
 * count) hold two thirds, 16 entries between them; @c (8-byte key, 16-byte
 * sum) one third, 5 entries.  The rest are drops: 24 and 15.
 */
/* @setup: ./build.sh */
/* @args: -q -x aggsize=400 -c "./trigger 20" */
trig$target:::tick
{
	@a[arg0] = count();
	@b[arg0] = count();
	@c[arg0] = sum(arg0);
}
trig$target:::done
{
	exit(0);
}
