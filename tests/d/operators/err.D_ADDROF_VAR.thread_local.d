/* Thread-local variables have no address either. */
BEGIN
{
	self->x = 1;
	p = &self->x;
}
