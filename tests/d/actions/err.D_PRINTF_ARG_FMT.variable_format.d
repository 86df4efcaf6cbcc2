/* the format of printf must be a string constant */
BEGIN
{
	printf(execname);
}
