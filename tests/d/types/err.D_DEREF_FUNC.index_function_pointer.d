/* nor can it be indexed */
int (*fp)(int);

BEGIN
{
	y = fp[1];
}
