typedef int quad_t[4];
provider p {
	probe a(quad_t *q);
};
