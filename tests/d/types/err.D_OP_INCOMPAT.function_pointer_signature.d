/* pointers to functions of other signatures do not mix */
int (*takes_int)(int);
int (*(*picks)(int))(long);

BEGIN
{
	takes_int = picks;
}
