/* Strings compare with all relational operators, also against char pointers. */
provider strp {
	probe name(char *);
};

strp*:::name
/args[0] == "init" || args[0] != execname/
{
	a = execname == "dtrace";
	b = "abc" < "abd";
	c = "b" >= "a";
	d = "x" <= "x";
	e = probefunc > "m";
	f = "lit" == args[0];
}
