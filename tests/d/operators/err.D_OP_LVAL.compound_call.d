/* A compound assignment needs an lvalue on its left. */
BEGIN
{
	strlen("abc") += 1;
}
