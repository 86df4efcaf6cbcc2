/* a destructive action after speculate() */
#pragma D option destructive
BEGIN
{
	speculate(1);
	raise(9);
}
