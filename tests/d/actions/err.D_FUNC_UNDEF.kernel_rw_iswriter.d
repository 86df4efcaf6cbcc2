/* rw_iswriter( ) reads a kernel reader/writer lock: the Guide's, but only kernel tracing has it. */
BEGIN
{
	trace(rw_iswriter((void *)arg0));
}
