/* Struct members may be bit-fields of an integer type (Guide: Structs and Unions, Bit-Fields). */
struct flags {
	unsigned int ready : 1;
	unsigned int mode : 3;
	int level : 4;
};

struct flags fl;

BEGIN
{
	x = fl.mode + fl.ready;
	fl.level = 2;
}
