/* The provider of the install test's program (test_install.py). */
provider instprov {
	probe tick(int, char *);
	probe done(int);
};
