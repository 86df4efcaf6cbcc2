/* mutex_type_spin( ) reads a kernel mutex: the Guide's, but only kernel tracing has it. */
BEGIN
{
	trace(mutex_type_spin((void *)arg0));
}
