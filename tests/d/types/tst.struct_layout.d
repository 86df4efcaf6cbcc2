/* Struct members are padded to their alignment and the size rounded up, as in C. */
struct mixed {
	char c;
	int i;
	char d;
	long l;
	short s;
};

BEGIN
{
	ok = 1 / (offsetof(struct mixed, c) == 0);
	ok = 1 / (offsetof(struct mixed, i) == 4);
	ok = 1 / (offsetof(struct mixed, d) == 8);
	ok = 1 / (offsetof(struct mixed, l) == 16);
	ok = 1 / (offsetof(struct mixed, s) == 24);
	ok = 1 / (sizeof (struct mixed) == 32);
}
