/* a nameless bit-field pads, as in C: mode is bits 3 to 5 */
/* @args: -q */
struct flags {
	unsigned int ready : 1;
	unsigned int : 2;
	unsigned int mode : 3;
};
this struct flags f;

BEGIN
{
	this->f.ready = 1;
	this->f.mode = 5;
	printf("%d %d ", this->f.ready, this->f.mode);
	trace(this->f); /* 1 | 5 << 3 = 41 */
	printf("\n");
	exit(0);
}
