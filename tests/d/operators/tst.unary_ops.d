/* Unary + - ~ ! apply to integers; ! also to pointers. */
char *p;

BEGIN
{
	x = 5;
	a = +x;
	b = -x;
	c = ~x;
	d = !x;
	e = !p;
	ok = 1 / (-(-3) == 3 && +7 == 7);
}
