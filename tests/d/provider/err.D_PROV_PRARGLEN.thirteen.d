provider p {
	probe many(int, int, int, int, int, int, int, int, int, int, int, int, int);
};
