/* $1 substitutes an integer or identifier argument, $$n the argument as a string. */
BEGIN
/$1 > 0/
{
	n = $1 + 1;
	p = $2;
	s = $$3;
	t = $$1;
	me = $$0;
	ok = 1 / ($1 == 42);
	same = s == "hello" && t == "42";
}
