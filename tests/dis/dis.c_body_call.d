/*
 * Calls of subroutines whose bodies are C: the arguments in r1.. (a new
 * temporary first for a string result, above the arguments', the result
 * then copied down where they began), "call dt_substr"; strchr's NULL
 * result faults (invalid address 0), substr's cannot be NULL.
 */
BEGIN
{
	trace(substr("abcdef", 2, 3));
	trace(strchr("abc", 'b'));
}
