/* stack() records data, so speculate() may not follow it */
BEGIN
{
	stack();
	speculate(1);
}
