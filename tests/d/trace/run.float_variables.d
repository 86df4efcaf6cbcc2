/*
 * Variables of a floating-point type hold a double's or float's bits:
 * global, self->, this-> and associative, assigned from args[] and printed
 * with %f %e %g, or traced (bits as an integer, as illumos).  Values:
 * fp_sdt's fp:::val(i, d, f) for 0, -1.5, 1e300, 0.1, denormals, -0,
 * 123456.789 (2.5f), infinities and a NaN.
 */
/* @setup: ./build_fp.sh */
/* @args: -q -c ./fp_sdt */
provider fp {
	probe val(int, double, float);
};

double d;
float f;
self double sd;
double ad[int];

fp$target:::val
{
	d = args[1];
	f = args[2];
	self->sd = args[1];
	ad[args[0]] = args[1];
	this->t = args[2];
}

fp$target:::val
/args[0] > 0/
{
	printf("%d %g %g %g %g %g | %g\n", args[0], d, f, self->sd, ad[args[0]], this->t,
	    ad[args[0] - 1]);
}

fp$target:::val
/args[0] == 1/
{
	trace(d);
	printf(" ");
	trace(f);
	printf("\n");
}
