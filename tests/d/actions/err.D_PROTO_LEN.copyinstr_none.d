/* copyinstr(addr[, maxlen]): the address is required. */
BEGIN
{
	trace(copyinstr());
}
