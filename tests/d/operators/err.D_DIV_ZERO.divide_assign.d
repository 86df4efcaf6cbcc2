/* /= by the constant 0 is a division by zero too. */
BEGIN
{
	x = 10;
	x /= 0;
}
