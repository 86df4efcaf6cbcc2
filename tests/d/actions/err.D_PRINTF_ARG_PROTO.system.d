/* system() formats are checked like printf's */
#pragma D option destructive
BEGIN
{
	system("kill -%d %d", 9);
}
