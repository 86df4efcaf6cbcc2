/* uregs[] has one index, the register. */
BEGIN
{
	trace(uregs[1, 2]);
}
