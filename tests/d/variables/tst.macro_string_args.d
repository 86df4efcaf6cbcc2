/* Macro arguments that are neither integers nor identifiers are strings (quotes stripped); +5 is an integer. */
BEGIN
{
	s = $1;
	q = $2;
	len = strlen($1) + strlen($2);
	ok = 1 / ($3 == 5);
}
