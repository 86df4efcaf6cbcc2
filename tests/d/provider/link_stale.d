/* an older definition of linkp: go had one argument, and a probe went away */
provider linkp {
	probe go(int);
	probe gone();
};
