/* printf %Y and %T with 64-bit integer times */
BEGIN
{
	printf("%Y\n", walltimestamp);
	printf("%T\n", walltimestamp);
	printf("%Y|%-30Y|\n", timestamp, (int64_t)arg0);
}
