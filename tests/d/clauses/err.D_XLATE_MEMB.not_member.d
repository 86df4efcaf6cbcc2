/* a translator member that is not a member of the output type */
struct in {
	int a;
};

struct out {
	int b;
};

translator struct out < struct in *P > {
	b = P->a;
	c = P->a;
};
