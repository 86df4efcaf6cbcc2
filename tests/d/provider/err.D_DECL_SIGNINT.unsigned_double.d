provider p {
	probe a(unsigned double);
};
