/*
 * pid return probes, illumos' arguments: arg0 is the offset of the ret in
 * the function (RETOFF: build.sh reads it from objdump), arg1 the return
 * value.  undecodable() has bytes that are no instruction: its return
 * probe is a uretprobe, whose arg0 is -1.  tailcall() jumps to work(): its
 * return site is that jmp, at 0xa, and work() returns 14 times.
 */
/* @setup: ./build.sh */
/* @args: -C -q -c "./trigger 7" */
#include "offsets.h"

pid$target:a.out:work:return
{
	@all = count();
}

pid$target:a.out:work:return
/arg1 == 42/
{
	@ret42 = count();
}

pid$target:a.out:work:return
/arg0 == RETOFF/
{
	@atret = count();
}

pid$target:a.out:undecodable:return
{
	@u[(long)arg0, arg1] = count();
}

pid$target:a.out:tailcall:return
{
	@tail[arg0] = count();
}

END
{
	printa("work returned %@d times\n", @all);
	printa("returned 42: %@d\n", @ret42);
	printa("at the ret's offset: %@d\n", @atret);
	printa("undecodable: arg0 %d, arg1 %d: %@d\n", @u);
	printa("tailcall: arg0 0x%x: %@d\n", @tail);
}
