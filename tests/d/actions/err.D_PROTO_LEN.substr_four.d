/* substr(s, index[, length]): three arguments at most. */
BEGIN
{
	trace(substr("abc", 1, 1, 1));
}
