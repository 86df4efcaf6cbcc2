/* mutex_owner( ) reads a kernel mutex: the Guide's, but only kernel tracing has it. */
BEGIN
{
	trace(mutex_owner((void *)arg0));
}
