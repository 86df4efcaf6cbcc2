/* sizeof does not apply to a bit-field */
struct flags {
	unsigned int ready : 1;
};
struct flags f;

BEGIN
{
	n = sizeof (f.ready);
}
