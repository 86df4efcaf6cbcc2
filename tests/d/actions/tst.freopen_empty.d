/* freopen("") restores the standard output (Guide: freopen) */
BEGIN
{
	freopen("");
}
