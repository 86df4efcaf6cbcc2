/*
 * %@ takes the aggregation's value, a uint64_t for count() (an int64_t for
 * the others): %@s is refused as dt_printf_validate refuses it, "aggregating
 * action" in the argument's place.
 */
BEGIN
{
	@a["x"] = count();
	printa("%s %@s\n", @a);
}
