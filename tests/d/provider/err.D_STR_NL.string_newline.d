provider p {
	probe a("unterminated
	);
};
