/* An action may not be an operand of ?: (DTrace's err.D_OP_ACT.badcond.d). */
BEGIN
{
	i = 1;
	x = i == 0 ? trace(0) : trace(1);
}
