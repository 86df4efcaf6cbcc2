/* An array of associative arrays (illumos dt_decl_array's D_DECL_DYNOBJ). */
int a[4][int];

BEGIN
{
	exit(0);
}
