/* sizeof cannot be applied to void. */
BEGIN
{
	n = sizeof (void);
}
