provider p {
	probe a(int);
	probe b();
	probe a(long);
};
