/* the anonymous aggregation @ without keys, used in two clauses */
tick-1s
{
	@ = sum(1);
}

END
{
	@ = sum(2);
	trunc(@);
}
