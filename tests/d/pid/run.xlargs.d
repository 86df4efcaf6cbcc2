/*
 * Translated args[] of a USDT probe: the program's provider definition
 * says q's first argument is a struct in * that a struct out * is made
 * of, and names the second the first output argument; args[i] reads
 * through the translator (illumos: xlate<struct out *>(arg0)).
 */
/* @setup: ./build.sh */
/* @args: -q -c "./xlargs 3" */
struct in {
	int a;
	int len;
};

struct out {
	int b;
	int size;
	int sum;
};

translator struct out < struct in *P > {
	b = P->a;
	size = P->len;
	sum = P->a + P->len;
};

provider xl {
	probe q(struct in *p, int i) : (int i, struct out *p);
};

xl$target:::q
{
	printf("%d: b %d size %d sum %d\n", args[0], args[1]->b, args[1]->size, args[1]->sum);
	this->o = args[1];
	@[args[0]] = sum(this->o->sum);
}

END
{
	printa("%d %@d\n", @);
}
