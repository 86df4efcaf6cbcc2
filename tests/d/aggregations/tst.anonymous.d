/* @ without a name: one anonymous aggregation, with or without keys, printed by printa(@) */
BEGIN
{
	@[execname, probename] = count();
}

END
{
	@["end", "END"] = count();
	printa(@);
}
