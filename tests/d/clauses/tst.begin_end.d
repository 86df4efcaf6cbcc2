/* BEGIN and END clauses, with empty bodies and without a predicate */
BEGIN
{
}

END
{
}

BEGIN
{
	trace("begin");
}
