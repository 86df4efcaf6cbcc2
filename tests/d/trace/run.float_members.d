/*
 * Floating-point members: read from the process (p->x, *(float *)addr) and kept
 * in a struct variable's members, printed with %f and %g, and print() of
 * the struct (Oracle's format, a double with %f).  fp_sdt's fp:::pt
 * passes { 2.75, -0.5f, 7 }.
 */
/* @setup: ./build_fp.sh */
/* @args: -q -c ./fp_sdt */
struct pt {
	double x;
	float y;
	int n;
};

provider fp {
	probe val(int, double, float);
	probe pt(struct pt *);
};

struct pt keep;

fp$target:::pt
{
	keep.x = args[0]->x;
	keep.y = *(float *)((uintptr_t)args[0] + 8);
	keep.n = args[0]->n;
	printf("%f %g %d | %f %g %d\n", args[0]->x, args[0]->y, args[0]->n, keep.x, keep.y,
	    keep.n);
	print(args[0]);
}
