provider p {
	probe a(int, void);
};
