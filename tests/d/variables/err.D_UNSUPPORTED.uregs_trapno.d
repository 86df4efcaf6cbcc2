/*
 * uregs[R_TRAPNO] (12, and 34 as REG_TRAPNO) and R_ERR: Linux keeps no
 * trap number or error code for a probe, so they are refused.
 */
BEGIN
{
	trace(uregs[34]);
}
