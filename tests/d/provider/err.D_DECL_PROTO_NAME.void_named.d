provider p {
	probe a(void nothing);
};
