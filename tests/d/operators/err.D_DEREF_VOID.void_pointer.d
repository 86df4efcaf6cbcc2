/* A void pointer cannot be dereferenced. */
void *vp;

BEGIN
{
	x = *vp;
}
