/* mutex_owned( ) reads a kernel mutex: the Guide's, but only kernel tracing has it. */
BEGIN
{
	trace(mutex_owned((void *)arg0));
}
