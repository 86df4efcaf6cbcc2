/* An array of strings is refused when compiled, with its place (not yet). */
string names[2];

BEGIN
{
	names[0] = "x";
}
