/* a / at the end of a predicate's line is a division when the next line goes on with the expression */
BEGIN
/arg0 /
2 == 1/
{
	trace(1);
}
