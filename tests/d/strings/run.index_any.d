/*
 * Any string expression may be indexed, as in illumos (E1[E2] is
 * *((E1)+(E2)), and a string is a pointer for +): built-in variables,
 * constants, subroutine results, ?:.  An index outside the string is 0,
 * as s[i] of a variable; a NULL string faults at address 0.
 */
/* @args: -q */

BEGIN
{
	printf("%c%c%c\n", execname[0], execname[1], execname[5]);
	printf("%d %d %d\n", probefunc[0], probename[0], probename[4]);
	printf("%c %c %c\n", "abc"[1], strjoin("ab", "cd")[3], toupper(substr("hello", 1))[0]);
	printf("%c %c\n", (1 ? "ab" : "cd")[1], (0 ? "ab" : "cd")[1]);
	printf("%d %d %d %d\n", strjoin("ab", "cd")[-1], strjoin("ab", "cd")[4],
	    lltostr(123)[255], lltostr(123)[256]);
	printf("%d\n", strjoin("ab", "cd")[1] == 'b');
}

BEGIN
{
	printf("%d\n", strchr("abc", 'z')[0]);
}

BEGIN
{
	exit(0);
}
