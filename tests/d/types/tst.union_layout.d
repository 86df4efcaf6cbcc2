/* All union members sit at offset 0 and the union is as big as its largest member. */
union value {
	char c;
	int i;
	long l;
	char buf[12];
};

union value u;

BEGIN
{
	ok = 1 / (offsetof(union value, c) == 0);
	ok = 1 / (offsetof(union value, l) == 0);
	ok = 1 / (offsetof(union value, buf) == 0);
	ok = 1 / (sizeof (union value) == 16);
	x = u.i;
}
