/*
 * printa without a format: one aggregation as at exit; several joined by key
 * as illumos dt_print_aggs does (a row per key, a value column for each
 * aggregation, zero where one has no entry for the key), all marked printed.
 * With a format, %@d takes each aggregation's value in turn.
 */
#pragma D option quiet

BEGIN
{
	@count["a", 1] = count();
	@count["b", 2] = count();
	@count["b", 2] = count();
	@total["a", 1] = sum(10);
	@total["b", 2] = sum(-4);
	@total["c", 3] = sum(5);
	@avg["a", 1] = avg(3);
	@avg["a", 1] = avg(6);
	@avg["b", 2] = avg(8);
	printa(@count);
	printf("--\n");
	printa(@count, @total, @avg);
	printf("--\n");
	printa("%s %d: %@d %@d %@d\n", @count, @total, @avg);
	printf("--\n");
	@e1[1] = sum(0);
	clear(@e1);
	printa(@e1, @e1);
	printf("--\n");
	exit(0);
}
