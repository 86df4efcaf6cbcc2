/* uses linkp through the header made from link_stale.d */
#include "link_stale.h"

void use(int x);
void use(int x)
{
	LINKP_GO(x);
	LINKP_GONE();
}
