/*
 * print() of a pointer to a struct, as Oracle's dtrace 2 prints it (the
 * expected output of its test/unittest/print tests): "0xADDR = *", then
 * the struct with each member's type in parentheses, indented to the
 * column a probe's data starts at (44) and one more a level; members and
 * elements that are all zeros are left out, a char array stops at its
 * first NUL, an enum names its value (or gives its number), a pointer is
 * hexadecimal.  A bad address faults.  The program is built without PIE,
 * so that its static structs' addresses are the same at every run.
 */
/* @setup: cc -O2 -no-pie -o print_sdt print_sdt.c */
/* @args: -q -c ./print_sdt */
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
