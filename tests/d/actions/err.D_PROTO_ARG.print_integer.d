/* print() takes a pointer (Oracle dtrace 2: prototype void *) */
BEGIN
{
	print(1);
}
