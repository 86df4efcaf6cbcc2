/* A variable holds any integer value once created; narrower values convert. */
BEGIN
{
	n = 1;
	n = 1L;
	n = (char)'x';
	m = 0xffffffffffffffffUL;
	m = n;
}
