#define NOTHING
/* lines are counted in this file, through cpp */
NOTHING

provider cp {
	probe a(int) oops;
};
