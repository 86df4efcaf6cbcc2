/* foo_t is neither a base type nor a typedef */
provider p {
	probe a(int, foo_t);
};
