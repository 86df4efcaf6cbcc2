/* illumos dt_printf_create: only h, l, L and w are length letters; the name they and the conversion make must be in _dtrace_conversions */
BEGIN
{
	printf("%jd\n", (long)1);
}
