/*
 * More key conversions than the aggregation has keys: illumos's words,
 * "missing a corresponding value argument", the keys being printa's
 * arguments after the aggregation.
 */
BEGIN
{
	@a["x"] = count();
	printa("%s %s %@d\n", @a);
}
