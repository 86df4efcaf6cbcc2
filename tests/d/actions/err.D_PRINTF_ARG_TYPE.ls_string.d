/* %ls is in illumos's table, but pfcheck_wstr takes only a wchar_t [] */
BEGIN
{
	printf("%ls\n", "abc");
}
