/* stringof turns integers, pointers and strings into strings. */
BEGIN
{
	a = stringof(42);
	b = stringof(pid);
	c = stringof((char *)0);
	d = stringof("already");
	e = a == "42";
}
