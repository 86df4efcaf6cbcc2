/* All values of an associative array share one type. */
BEGIN
{
	a["x"] = 1;
	a["y"] = "two";
}
