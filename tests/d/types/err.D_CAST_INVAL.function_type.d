/* a cast may make a pointer to a function, not a function */
BEGIN
{
	ok = (int (*)(int))0;
	bad = (int (int))0;
}
