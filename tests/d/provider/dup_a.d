provider dup {
	probe a(int);
};
