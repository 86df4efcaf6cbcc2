provider p {
	probe __start();
};
