/* Each key keeps the type of its first use: an int key cannot become a string. */
BEGIN
{
	a[1] = 1;
	a["one"] = 2;
}
