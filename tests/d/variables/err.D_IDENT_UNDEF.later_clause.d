/* Clauses are checked in order: a variable first assigned later is unknown here. */
BEGIN
{
	x = later;
}

END
{
	later = 1;
}
