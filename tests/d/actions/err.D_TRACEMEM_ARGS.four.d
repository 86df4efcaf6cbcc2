/* tracemem(addr, size[, dynsize]): a fourth argument is refused with DTrace's own tag. */
BEGIN
{
	tracemem(arg0, 8, 4, 1);
}
