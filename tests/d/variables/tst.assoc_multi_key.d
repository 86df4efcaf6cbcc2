/* A key may be a tuple of several values of mixed types. */
BEGIN
{
	t[pid, execname, 3] = 1;
	t[1, "x", (char)4] = t[pid, execname, 3] + 1;
	u[probefunc, probename] = "name";
	w[1, 2, 3, 4, 5, 6, 7, 8] = 8;
}
