provider p {
	probe a(char x[99999999999999999999999]);
};
