/* psetid is the processor set of the CPU: the Guide's, but only kernel tracing has it. */
BEGIN
{
	trace(psetid);
}
