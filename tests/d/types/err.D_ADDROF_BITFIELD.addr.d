/* the address of a bit-field cannot be taken */
struct flags {
	unsigned int ready : 1;
};
struct flags f;

BEGIN
{
	p = &f.ready;
}
