/* A struct defined after the clause is still incomplete there: D is compiled in program order. */
BEGIN
{
	n = sizeof (struct dt_later_s);
}

struct dt_later_s { int a; };
