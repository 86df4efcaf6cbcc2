/* print() of what a void * points to: no size to print (Oracle dtrace 2's D_PRINT_SIZE) */
BEGIN
{
	print((void *)0);
}
