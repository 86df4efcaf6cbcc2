/* mutex_type_adaptive( ) reads a kernel mutex: the Guide's, but only kernel tracing has it. */
BEGIN
{
	trace(mutex_type_adaptive((void *)arg0));
}
