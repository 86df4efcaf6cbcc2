/*
 * pid offset probes: on an instruction boundary, in hexadecimal.
 * align_me is a 10-byte movabs and its ret (at a); RETHEX is the offset
 * of work()'s ret (build.sh reads it from objdump).
 */
/* @setup: ./build.sh */
/* @args: -C -q -c "./trigger 5" */
#include "offsets.h"

pid$target:a.out:align_me:0
{
	@first = count();
}

pid$target:a.out:align_me:a
{
	@ret = count();
}

pid$target:a.out:work:RETHEX
{
	@work = count();
}

END
{
	printa("align_me+0: %@d\n", @first);
	printa("align_me+a: %@d\n", @ret);
	printa("work's ret: %@d\n", @work);
}
