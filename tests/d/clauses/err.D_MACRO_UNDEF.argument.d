/* $2 without a second macro argument */
BEGIN
{
	trace($1);
	trace($2);
}
