/*
 * A stack key takes only %k: illumos' stack is a type of its own (a
 * typedef of void), which pfcheck_dint refuses ("argument: stack").
 */
BEGIN
{
	@[ustack()] = count();
	printa("%d %@d\n", @);
}
