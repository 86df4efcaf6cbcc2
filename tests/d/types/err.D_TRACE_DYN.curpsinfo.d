/* curpsinfo is a translated pointer: its members have values, the pointer has none to trace. */
BEGIN
{
	trace(curpsinfo);
}
