/* tracemem(addr, size[, dynsize]): the size is required. */
BEGIN
{
	tracemem(arg0);
}
