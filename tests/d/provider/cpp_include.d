#include "no_such_header.h"
provider cp {
	probe a(int);
};
