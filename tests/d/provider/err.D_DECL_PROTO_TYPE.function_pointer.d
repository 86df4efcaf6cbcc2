/* dtrace -h could not spell a pointer to a function as a parameter: uintptr_t carries it */
provider p {
	probe ok(uintptr_t);
	probe bad(int (*)(int));
};
