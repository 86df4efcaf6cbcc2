provider dup {
	probe b(int);
};
