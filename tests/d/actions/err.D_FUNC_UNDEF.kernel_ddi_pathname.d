/* ddi_pathname( ) reads a kernel device node: the Guide's, but only kernel tracing has it. */
BEGIN
{
	trace(ddi_pathname((void *)arg0, 0));
}
