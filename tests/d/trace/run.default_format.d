/* The default output: header, CPU, ID, FUNCTION:NAME, trace() by size. */
BEGIN
{
	trace((char)1);
	trace((short)-2);
	trace(3);
	trace(4LL);
	trace("five");
}
BEGIN
{
	exit(0);
}
END
{
	trace(-1);
}
