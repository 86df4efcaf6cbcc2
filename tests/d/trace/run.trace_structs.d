/*
 * trace() of a struct or union, as illumos's dt_consume prints a record by
 * its size alone: of 1, 2, 4 or 8 bytes as an integer of that size (two
 * ints as one 64-bit number), else as bytes (dt_print_bytes): a string
 * when they are printable characters followed by NULs only, otherwise a
 * dump as tracemem's.  Variables: global, self->, this->, associative (an
 * absent element is zeros); a bad address faults (run.trace_struct_memory.d
 * has memory).
 */
struct pair {
	int a;
	int b;
};

struct odd {
	int a;
	short b;
	char c;
};

struct trio {
	int a;
	int b;
	int c;
};

struct five {
	char s[5];
};

union u {
	uint32_t w;
	uint8_t b;
};

struct pair g;
struct odd o;
struct trio str, bin, zero;
self struct odd so;
struct odd arr[int];
this union u tu;

BEGIN
{
	g.a = 1;
	g.b = -2;
	o.a = 0x01020304;
	o.b = -1;
	o.c = 'h';
	self->so.a = 7;
	arr[1].b = 9;
	this->tu.w = 0x41424344;
	trace(g);
	trace(o);
	trace(self->so);
	trace(arr[1]);
	trace(arr[2]);
	trace(this->tu);
}

BEGIN
{
	str.a = 0x636261; /* "abc", then NULs only: a string */
	bin.a = 0x636261;
	bin.c = 1; /* a byte after the NULs: a dump */
	trace(str);
	trace(bin);
	trace(zero); /* a NUL first: a dump */
}

BEGIN
{
	trace(*(struct five *)0);
}

BEGIN
{
	exit(0);
}
