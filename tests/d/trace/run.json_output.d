/* -x oformat=json: one object per record, per aggregation entry and per error, each on a line. */
/* @args: -x oformat=json */
BEGIN
{
	trace(-1);
	trace((unsigned char)200);
	trace("tab\there \"quoted\"");
	printf("%s=%d\n", "x", 42);
	@counts["b"] = count();
	@counts["a"] = count();
	@counts["b"] = count();
	@total[1, "one"] = sum(10);
	@total[2, "two"] = sum(-3);
	@mean = avg(7);
	@mean = avg(2);
	@sd = stddev(2);
	@sd = stddev(4);
	@q = quantize(0);
	@q = quantize(5);
	@q = quantize(-3);
	@q = quantize(1LL << 40);
	@l = lquantize(-1, 0, 10, 5);
	@l = lquantize(7, 0, 10, 5);
	@l = lquantize(10, 0, 10, 5);
	@ll = llquantize(0, 10, 0, 2, 10);
	@ll = llquantize(35, 10, 0, 2, 10);
	@ll = llquantize(5000, 10, 0, 2, 10);
}
BEGIN
{
	x = *(int *)8;
}
BEGIN
{
	printa("%s %@d\n", @counts);
	exit(0);
}
