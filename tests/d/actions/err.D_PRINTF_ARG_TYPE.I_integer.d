/* %I: pfcheck_str, a string (an address written out), not an integer address */
BEGIN
{
	printf("%I\n", 0x7f000001);
}
