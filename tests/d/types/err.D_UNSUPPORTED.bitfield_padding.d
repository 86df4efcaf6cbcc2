/* a nameless bit-field pads, as in C */
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
}
