/* += reads its left operand, which must have been assigned. */
BEGIN
{
	x += 1;
}
