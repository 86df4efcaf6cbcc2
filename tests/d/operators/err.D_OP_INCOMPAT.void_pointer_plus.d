/* + does not apply to a void pointer, whose target has no size. */
void *v;

BEGIN
{
	w = v + 1;
}
