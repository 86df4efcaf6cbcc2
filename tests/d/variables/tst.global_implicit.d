/* Assigning to an unknown name creates a global scalar with the value's type. */
BEGIN
{
	nticks = 0;
	name = execname;
	ptr = (char *)0;
	big = 1L << 40;
}

tick-1s
{
	nticks = nticks + 1;
	name = "other";
	ptr = ptr + 1;
	big = big * 2;
}
