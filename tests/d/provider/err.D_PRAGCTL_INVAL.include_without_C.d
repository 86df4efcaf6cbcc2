#include <stdint.h>
provider p {
	probe a(int);
};
