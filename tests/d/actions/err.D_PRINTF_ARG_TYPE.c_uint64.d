/* printf %c needs a char, short or int, not a 64-bit integer */
BEGIN
{
	printf("%c\n", timestamp);
}
