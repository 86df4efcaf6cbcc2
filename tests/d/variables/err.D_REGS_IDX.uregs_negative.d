/* uregs[] is indexed by register number: a negative index names none (DTrace's D_REGS_IDX). */
BEGIN
{
	trace(uregs[-1]);
}
