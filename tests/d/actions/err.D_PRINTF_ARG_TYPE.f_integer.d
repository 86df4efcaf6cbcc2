/* printf %f needs a floating-point value */
BEGIN
{
	printf("%f\n", 1);
}
