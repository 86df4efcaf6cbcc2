/* two speculate() calls in one clause */
BEGIN
{
	speculate(1);
	speculate(2);
}
