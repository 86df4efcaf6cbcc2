/* %ws: pfcheck_wstr wants 32-bit elements; a long has 64 */
long vals[2];

BEGIN
{
	printf("%ws\n", vals);
}
