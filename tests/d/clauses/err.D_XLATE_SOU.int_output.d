/* a translator whose output type is not a struct or union */
struct in {
	int a;
};

translator int < struct in *P > {
	a = P->a;
};
