provider p {
	probe a(long char);
};
