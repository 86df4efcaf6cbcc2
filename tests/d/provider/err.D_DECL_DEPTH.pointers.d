provider p {
	probe a(int *********************************x);
};
