/*
 * s[i] of a string variable: its char (signed, as char is), 0 at and past
 * its NUL and before its start, whatever the index.
 */
/* @args: -q */

BEGIN
{
	s = "abc";
	printf("%c%c %d %d %d %d\n", s[0], s[2], s[3], s[-1], s[100000], s[9223372036854775807]);
	t = "\xff";
	printf("%d %d\n", t[0], t[1]);
	this->u = "xy";
	self->v = "z";
	i = 1;
	printf("%c %c\n", this->u[i], self->v[i - 1]);
	e = "";
	printf("%d\n", e[0]);
	exit(0);
}
