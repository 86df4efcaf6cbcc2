/* Dividing by the constant 0 is caught at compile time. */
BEGIN
{
	x = 10;
	y = x / 0;
}
