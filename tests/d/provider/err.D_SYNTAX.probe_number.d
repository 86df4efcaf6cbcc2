provider p {
	probe 123();
};
