/* printa() of an aggregation that is only assigned in a later clause */
END
{
	printa(@a);
}

syscall:::entry
{
	@a = count();
}
