/*
 * Temporaries are reused: 100 string subroutine calls in one clause at
 * strsize 1024 need the scratch of those live at once, not 100 x 1024
 * bytes (over the 32 KiB scratch value, D_CG_LIMIT, before).
 */
/* @args: -q -x strsize=1024 */

BEGIN
{
	n = 0;
	m = 0;
	n += strlen(toupper(strjoin("ab", lltostr(0))));
	m += basename(strjoin("/d/", lltostr(0 * 3))) == lltostr(0 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(1))));
	m += basename(strjoin("/d/", lltostr(1 * 3))) == lltostr(1 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(2))));
	m += basename(strjoin("/d/", lltostr(2 * 3))) == lltostr(2 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(3))));
	m += basename(strjoin("/d/", lltostr(3 * 3))) == lltostr(3 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(4))));
	m += basename(strjoin("/d/", lltostr(4 * 3))) == lltostr(4 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(5))));
	m += basename(strjoin("/d/", lltostr(5 * 3))) == lltostr(5 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(6))));
	m += basename(strjoin("/d/", lltostr(6 * 3))) == lltostr(6 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(7))));
	m += basename(strjoin("/d/", lltostr(7 * 3))) == lltostr(7 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(8))));
	m += basename(strjoin("/d/", lltostr(8 * 3))) == lltostr(8 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(9))));
	m += basename(strjoin("/d/", lltostr(9 * 3))) == lltostr(9 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(10))));
	m += basename(strjoin("/d/", lltostr(10 * 3))) == lltostr(10 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(11))));
	m += basename(strjoin("/d/", lltostr(11 * 3))) == lltostr(11 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(12))));
	m += basename(strjoin("/d/", lltostr(12 * 3))) == lltostr(12 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(13))));
	m += basename(strjoin("/d/", lltostr(13 * 3))) == lltostr(13 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(14))));
	m += basename(strjoin("/d/", lltostr(14 * 3))) == lltostr(14 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(15))));
	m += basename(strjoin("/d/", lltostr(15 * 3))) == lltostr(15 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(16))));
	m += basename(strjoin("/d/", lltostr(16 * 3))) == lltostr(16 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(17))));
	m += basename(strjoin("/d/", lltostr(17 * 3))) == lltostr(17 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(18))));
	m += basename(strjoin("/d/", lltostr(18 * 3))) == lltostr(18 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(19))));
	m += basename(strjoin("/d/", lltostr(19 * 3))) == lltostr(19 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(20))));
	m += basename(strjoin("/d/", lltostr(20 * 3))) == lltostr(20 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(21))));
	m += basename(strjoin("/d/", lltostr(21 * 3))) == lltostr(21 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(22))));
	m += basename(strjoin("/d/", lltostr(22 * 3))) == lltostr(22 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(23))));
	m += basename(strjoin("/d/", lltostr(23 * 3))) == lltostr(23 * 3);
	n += strlen(toupper(strjoin("ab", lltostr(24))));
	m += basename(strjoin("/d/", lltostr(24 * 3))) == lltostr(24 * 3);
	printf("%d %d\n", n, m);
	exit(0);
}
