/* The same holds for thread-local associative arrays. */
BEGIN
{
	self->a["k", 1] = 1;
	x = self->a["k"];
}
