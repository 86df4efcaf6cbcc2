/* printf needs its format. */
BEGIN
{
	printf();
}
