/* '->' cannot reach into a struct that is declared but never defined. */
struct opaque;
struct opaque *op;

BEGIN
{
	x = op->field;
}
