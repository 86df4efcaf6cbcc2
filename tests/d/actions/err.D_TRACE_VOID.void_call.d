/* trace() of a void subroutine call */
BEGIN
{
	trace(bcopy((void *)arg0, alloca(4), 4));
}
