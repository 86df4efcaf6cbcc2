/* Adjacent string literals are not concatenated: D's grammar has no such rule. */
BEGIN
{
	s = "abc" "def";
}
