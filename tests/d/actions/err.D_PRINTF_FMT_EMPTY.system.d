/* an empty system() format */
#pragma D option destructive
BEGIN
{
	system("");
}
