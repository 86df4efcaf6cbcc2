/* only the last macro argument must be referenced, as in DTrace */
BEGIN
{
	trace($2);
}
