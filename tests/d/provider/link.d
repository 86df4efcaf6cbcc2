provider linkp {
	probe go(int, const char *);
	probe stop();
};
