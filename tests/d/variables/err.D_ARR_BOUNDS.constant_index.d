/* A constant index outside a declared array is refused (Oracle's err.D_ARR_BOUNDS.declared.d). */
int a[5];

BEGIN
{
	a[4] = 1;
	trace(a[5]);
}
