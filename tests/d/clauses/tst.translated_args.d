/* a probe with translated arguments: args[] has the output types, through the translator */
struct in {
	int a;
	int len;
};

struct out {
	int b;
	int size;
};

translator struct out < struct in *P > {
	b = P->a;
	size = P->len;
};

provider myp {
	probe q(struct in *, int) : (struct out *, int);
};

myp*:::q
{
	trace(args[0]->b);
	@[args[1]] = sum(args[0]->size);
}
