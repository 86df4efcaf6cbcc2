/* offsetof does not apply to a bit-field */
struct flags {
	int a;
	unsigned int ready : 1;
};

BEGIN
{
	n = offsetof(struct flags, ready);
}
