/* Unary & needs an lvalue. */
BEGIN
{
	p = &42;
}
