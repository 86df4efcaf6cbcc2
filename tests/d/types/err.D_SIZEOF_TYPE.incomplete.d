/* sizeof cannot be applied to a struct that is declared but not defined. */
struct opaque;

BEGIN
{
	n = sizeof (struct opaque);
}
