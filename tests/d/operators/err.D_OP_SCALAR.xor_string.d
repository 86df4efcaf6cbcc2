/* ^^ requires scalar operands. */
BEGIN
{
	x = execname ^^ 0;
}
