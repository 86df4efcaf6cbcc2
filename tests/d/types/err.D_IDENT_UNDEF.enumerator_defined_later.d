/* An enumerator defined after the clause is unknown there: D is compiled in program order. */
BEGIN
{
	v = ONE;
}

enum numbers { ZERO, ONE };
