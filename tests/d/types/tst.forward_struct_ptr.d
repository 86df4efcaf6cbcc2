/* A pointer to a struct that is declared but never defined is a valid type. */
struct opaque;
struct opaque *handle;

BEGIN
{
	p = handle;
	q = p == handle;
	ok = 1 / (sizeof (struct opaque *) == 8);
}
