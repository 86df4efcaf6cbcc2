/* A thread-local associative array may not be assigned as a whole. */
BEGIN
{
	self->a[1] = 2;
	self->a = 1;
}
