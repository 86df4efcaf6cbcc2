/* ? is a printf flag, and may be followed by a width given by * */
BEGIN
{
	printf("%?*d\n", 4, 1);
}
