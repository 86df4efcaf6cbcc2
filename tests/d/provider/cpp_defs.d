#include <cpp_types.h>
provider cp {
	probe a(ARGTYPE, SECOND_ARG);
};
