/* rw_write_held( ) reads a kernel reader/writer lock: the Guide's, but only kernel tracing has it. */
BEGIN
{
	trace(rw_write_held((void *)arg0));
}
