/* an undefined conversion: DTrace reports it without a tag (dt_printf_create, yywarn) */
BEGIN
{
	printf("%q\n", 1);
}
