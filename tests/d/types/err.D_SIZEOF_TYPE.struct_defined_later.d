/* A struct defined after the clause is still incomplete there: D is compiled in program order. */
BEGIN
{
	n = sizeof (struct s);
}

struct s { int a; };
