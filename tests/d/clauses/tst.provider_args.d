/* args[] typed by a provider declared in the same file */
provider myp {
	probe p(int, char *);
	probe q(uint64_t count, const char *name, int flags);
};

myp*:::p
{
	trace(args[0] + 1);
	trace(copyinstr((uintptr_t)args[1]));
	@[args[0]] = count();
}

myp*:::q
/args[2] != 0/
{
	@sizes[copyinstr((uintptr_t)args[1])] = sum(args[0]);
}
