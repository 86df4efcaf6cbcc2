/*
 * print() of a pointer to a struct in JSON (docs/json.md): the address,
 * the type, and the value with every named member (zeros too), a char
 * array a string, an enum its enumerator's name, a pointer its address.
 * The same probes in text: run.print_struct.d.  The program is built
 * without PIE, so that its static structs' addresses are the same at every
 * run.
 */
/* @setup: cc -O2 -no-pie -o print_sdt print_sdt.c */
/* @args: -q -x oformat=json -c ./print_sdt */
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
	short neg;
	int arr[4];
};

provider ps {
	probe one(struct test_struct *);
	probe zero(struct test_struct *);
};

ps$target:::one,
ps$target:::zero
{
	print(args[0]);
}

BEGIN
{
	print((struct test_struct *)8);
}

ERROR
{
	printf("fault %d at %x\n", arg4, arg5);
}
