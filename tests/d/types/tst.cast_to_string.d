/* A scalar may be cast to string, like stringof (Guide: Strings, String Conversion). */
BEGIN
{
	s = (string)42;
	t = (string)pid;
}
