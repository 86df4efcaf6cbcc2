/* an empty printf format */
BEGIN
{
	printf("");
}
