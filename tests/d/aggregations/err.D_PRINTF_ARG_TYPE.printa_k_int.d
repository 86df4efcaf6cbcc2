/* %k takes a stack key only (pfcheck_stack): an integer key is refused. */
BEGIN
{
	@[1] = count();
	printa("%k %@d\n", @);
}
