/*
 * long double (16 bytes on x86-64), a value by reference as in illumos
 * (dt_node_type_assign: a float wider than 8 bytes is DT_NF_REF): members
 * of the process's memory (wide_sdt's 2.5 and -1e-300) printed with %Le
 * %LE %Lf %Lg %LG and with %f (pfprint_fp formats by the size: an L is
 * added), width, precision and flags; kept in a global, self->, this->
 * and a struct member, and printed from them; trace() prints its 16
 * bytes (x87's 80 bits, then padding), as dt_print_bytes does a record
 * of no integer size; print() of the struct shows them with %Lf.
 */
/* @setup: ./build_wide.sh */
/* @args: -q -c ./wide_sdt */
struct wide {
	wchar_t hi[4];
	wchar_t full[3];
	wchar_t empty[2];
	wchar_t latin[3];
	int after;
	long double ld;
	long double neg;
};

struct keep {
	int n;
	long double v;
};

provider wd {
	probe str(struct wide *);
};

long double g;
struct keep k;

wd$target:::str
{
	printf("%Lf %Le %Lg %LE %LG %f %g\n", args[0]->ld, args[0]->ld, args[0]->ld,
	    args[0]->ld, args[0]->ld, args[0]->ld, args[0]->neg);
	printf("[%10.3Lf] [%-12.2Le] [%+Lg] [%012.4Lf]\n", args[0]->neg, args[0]->neg,
	    args[0]->ld, args[0]->ld);
	g = args[0]->ld;
	self->s = args[0]->neg;
	this->t = args[0]->ld;
	k.v = args[0]->neg;
	k.n = 1;
	printf("%Lg %Lg %Lg %Lg %d %d\n", g, self->s, this->t, k.v, sizeof (g), sizeof (k));
	trace(args[0]->ld);
	printf("\n");
	trace(k.v);
	printf("\n");
	print(args[0]);
}
