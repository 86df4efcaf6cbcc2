/*
 * Parenthesized declarators, as C has them: pointers to functions (members,
 * typedefs, variables, casts), arrays of them, and functions that return
 * them.  Each pointer is 8 bytes, aligned to 8.
 * @args: -q
 */
struct ops {
	char tag;
	int (*open)(const char *, int);
	void (*handlers[4])(void);
	short flags;
	char *(*name)(struct ops *, ...);
	int (*(*pick)(int))(long);
};

typedef int (*compare_t)(const void *, const void *);
typedef void (*vector_t[3])(int);
typedef long handler_t(int);

int (*gfp)(int);
void (*table[4])(void);
compare_t cmp;
handler_t *hp;
int ((*paren))(int);
self int (*sfp)(int);

BEGIN
{
	ok = 1 / (offsetof(struct ops, open) == 8);
	ok = 1 / (offsetof(struct ops, handlers) == 16);
	ok = 1 / (offsetof(struct ops, flags) == 48);
	ok = 1 / (offsetof(struct ops, name) == 56);
	ok = 1 / (offsetof(struct ops, pick) == 64);
	ok = 1 / (sizeof (struct ops) == 72);
	ok = 1 / (sizeof (int (*)(int)) == 8);
	ok = 1 / (sizeof (void (*[4])(void)) == 32);
	ok = 1 / (sizeof (compare_t) == 8);
	ok = 1 / (sizeof (vector_t) == 24);
	ok = 1 / (sizeof (handler_t *) == 8);
	ok = 1 / (sizeof (table) == 32);
	ok = 1 / (sizeof (table[0]) == 8);

	gfp = (int (*)(int))0;
	gfp = paren;
	self->sfp = gfp;
	cmp = (compare_t)0;
	hp = (long (*)(int))0;
	ok = 1 / (gfp == 0);
	x = (uintptr_t)table[2];
	trace(gfp);
	printf(" %d %d\n", x, table[3] == 0);
	exit(0);
}
