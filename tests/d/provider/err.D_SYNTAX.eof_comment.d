provider p {
	probe a(int); /* never closed
};
