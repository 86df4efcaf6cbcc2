/* two translators for the same input and output types */
struct in {
	int a;
};

struct out {
	int b;
};

translator struct out < struct in *P > {
	b = P->a;
};

translator struct out < struct in *Q > {
	b = Q->a + 1;
};
