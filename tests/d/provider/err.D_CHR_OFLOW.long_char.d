provider p {
	probe a('abcdefghi');
};
