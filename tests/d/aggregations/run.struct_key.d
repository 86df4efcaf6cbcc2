/*
 * A struct, union or array is an aggregation key by its bytes, printed by
 * its size as illumos's dt_print_datum prints a key record: 1, 2, 4 or 8
 * bytes as an integer of that size, others as a string if they look like
 * one (dt_print_bytes), else as a dump.  Entries of equal value sort by
 * their keys' bytes; a struct in memory (*p) is read whole.
 */
/* @args: -q */
struct four { short a; short b; };
struct eight { int a; int b; };
struct odd { int pos; char c; };
struct name { char s[6]; };
union u { int i; char c[4]; };

struct four f;
struct eight e;
struct odd o1, o2;
struct name zero;
struct name n;
union u uu;
int arr[3];

BEGIN
{
	f.a = 1;
	f.b = 2;
	@four[f] = count();
	e.a = -1;
	e.b = 0;
	@eight[e] = sum(5);
	e.a = 3;
	@eight[e] = sum(7);
	o1.pos = 7;
	o1.c = 'x';
	o2.pos = 7;
	o2.c = 'x';
	@odd[o1] = count();
	@odd[o2] = count();
	o2.c = 0;
	@odd[o2] = count();
	n.s[0] = 'a';
	n.s[1] = 'b';
	@name[n, 3] = count();
	@name[n, 1] = count();
	uu.i = 65;
	@u[uu] = max(9);
	this->p = (struct eight *)alloca(sizeof(struct eight));
	this->p->a = 9;
	this->p->b = 1;
	@eight[*this->p] = sum(1);
	arr[1] = 4;
	@arr[arr] = count();
	@arr[arr] = count();
	@zero[zero, "z"] = count();
	exit(0);
}
