/* getmajor( ) reads device numbers (dev_t) of the kernel's devices: the Guide's, but only kernel tracing has it. */
BEGIN
{
	trace(getmajor(arg0));
}
