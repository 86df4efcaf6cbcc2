/*
 * trace() of a struct in scratch memory (alloca()), as of one in the
 * process: *t and t->u, printed by size (a dump; an 8-byte union as an
 * integer).  The values are Oracle's tst.print.local.d's.
 */
/* @args: -q */
enum eh { FIRSTVAL = 0, SECONDVAL = 1, THIRDVAL = 3 };

struct test_struct {
	int a;
	char b[5];
	union {
		uint8_t c;
		uint64_t d;
	} u;
	struct {
		void *e;
		uint64_t f;
	} s;
	_Bool g;
	enum eh h;
};

BEGIN
{
	t = (struct test_struct *)alloca(sizeof (struct test_struct));
	t->a = 1;
	t->b[0] = 't';
	t->b[1] = 'e';
	t->b[2] = 's';
	t->b[3] = 't';
	t->b[4] = '\0';
	t->u.d = 123456789;
	t->s.e = (void *)0xffff9b7aca7e0000;
	t->s.f = 987654321;
	t->g = 1;
	t->h = SECONDVAL;
	trace(*t);
	printf("\n");
	trace(t->u);
	printf("\n");
	exit(0);
}
