/* getminor( ) reads device numbers (dev_t) of the kernel's devices: the Guide's, but only kernel tracing has it. */
BEGIN
{
	trace(getminor(arg0));
}
