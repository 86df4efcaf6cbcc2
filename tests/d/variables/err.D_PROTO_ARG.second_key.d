/* Key types are checked position by position. */
BEGIN
{
	a["x", 1] = 1;
	a["y", "z"] = 2;
}
