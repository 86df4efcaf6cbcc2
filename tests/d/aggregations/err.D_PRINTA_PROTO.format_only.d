/* printa() with a format needs an aggregation after it */
BEGIN
{
	printa("%d\n");
}
