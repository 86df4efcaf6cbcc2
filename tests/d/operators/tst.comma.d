/* The comma operator evaluates both operands and yields the right one. */
BEGIN
{
	x = (1, 2);
	y = 1, z = 2;
}
