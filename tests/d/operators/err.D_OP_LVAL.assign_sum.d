/* A parenthesized sum is not an lvalue. */
BEGIN
{
	x = 1;
	y = 2;
	(x + y) = 3;
}
