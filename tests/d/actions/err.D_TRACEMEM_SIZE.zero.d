/* the size given to tracemem() must be a positive constant */
BEGIN
{
	tracemem(arg0, 0);
}
