/*
 * String subroutines nested ten deep at strsize 2048: a result is made
 * above its arguments and moved down where they began, so a nesting holds
 * two or three temporaries whatever its depth (with one a level it needed
 * more than the 32 KiB scratch value: D_CG_LIMIT).  strjoin() takes its
 * arguments in order.
 */
/* @args: -q -x strsize=2048 */

BEGIN
{
	printf("%s\n", strjoin(strjoin(strjoin(strjoin(strjoin(strjoin(strjoin(strjoin(strjoin(strjoin("x", "0"), "1"), "2"), "3"), "4"), "5"), "6"), "7"), "8"), "9"));
	printf("%s\n", toupper(tolower(toupper(tolower(toupper(tolower(toupper(tolower(toupper(tolower("/usr/Lib/x")))))))))));
	printf("%s\n", substr(substr(substr(substr(substr(substr(substr(substr(substr(substr("mixed/Case/path", 0), 1), 0), 1), 0), 1), 0), 1), 0), 1));
	printf("%d\n", strjoin(strjoin(strjoin(strjoin(strjoin(strjoin(strjoin(strjoin(strjoin(strjoin("x", "0"), "1"), "2"), "3"), "4"), "5"), "6"), "7"), "8"), "9") == "x0123456789");
	exit(0);
}
