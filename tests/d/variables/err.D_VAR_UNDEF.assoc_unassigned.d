/* Reading an associative array that was never assigned. */
BEGIN
{
	trace(tab[1]);
}
