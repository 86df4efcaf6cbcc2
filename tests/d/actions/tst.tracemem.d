/* tracemem() with a constant size, of copied-in memory, and with a dynamic size */
syscall::write:entry
{
	tracemem(arg1, 32);
	tracemem(copyin(arg1, 16), 16);
	tracemem(arg1, 64, arg2);
}
