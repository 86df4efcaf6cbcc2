/* uses linkp as link.d declares it */
#include "link.h"

void use(int x);
void use(int x)
{
	LINKP_GO(x, "go");
	LINKP_STOP();
}
