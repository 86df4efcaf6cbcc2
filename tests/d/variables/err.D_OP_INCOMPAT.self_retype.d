/* A thread-local variable keeps the type of its first assignment. */
BEGIN
{
	self->p = (int *)0;
	self->p = "str";
}
