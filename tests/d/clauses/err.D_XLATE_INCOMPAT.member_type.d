/* a translator member given a value of an incompatible type */
struct in {
	int a;
	char *s;
};

struct out {
	int b;
};

translator struct out < struct in *P > {
	b = stringof(P->s);
};
