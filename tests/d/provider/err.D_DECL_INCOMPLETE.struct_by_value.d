provider p {
	probe a(struct request);
};
