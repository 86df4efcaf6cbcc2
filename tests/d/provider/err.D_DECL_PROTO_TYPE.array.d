provider p {
	probe a(char buf[16]);
};
