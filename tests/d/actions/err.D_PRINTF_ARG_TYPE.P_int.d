/* %P: pfcheck_type "uint16_t": an int port must be cast */
BEGIN
{
	printf("%P\n", 80);
}
