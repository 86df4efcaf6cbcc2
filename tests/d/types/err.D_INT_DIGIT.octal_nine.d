/* A leading 0 makes an octal constant, in which 9 is not a digit. */
BEGIN
{
	x = 0129;
}
