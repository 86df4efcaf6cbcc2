/* strtoll() is not generated yet */
BEGIN
{
	trace(strtoll("0x1f", 16));
	trace(strtoll("42"));
}
