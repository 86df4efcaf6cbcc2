/* the third operand of ?: is a conditional expression, so this is no assignment */
BEGIN
{
	a = 1;
	b = 2;
	c = 3;
	a ? b : c = 4;
}
