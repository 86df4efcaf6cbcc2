/* aggregation keys and values from macro arguments: $1 an integer, $$2 a string */
BEGIN
{
	@a[$1, $$2] = count();
	@b[$$2] = sum($1);
}
