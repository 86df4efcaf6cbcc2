/* DTrace numbers 47 registers on amd64 (R_GS..R_SS, then 19 + REG_*): 47 is past the last. */
BEGIN
{
	trace(uregs[47]);
}
