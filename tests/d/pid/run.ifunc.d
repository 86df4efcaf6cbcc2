/*
 * memcpy is an STT_GNU_IFUNC symbol of libc: its address is a resolver's.
 * The probe goes on the implementation the target's dynamic linker chose
 * (read from libc's GOT slot in the target).  Its size is unknown, so its
 * return probe is a uretprobe (arg0 -1).  The target copies 777 bytes 4
 * times; libc's own calls copy other sizes.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./trigger 4" */
pid$target:libc.so.6:memcpy:entry
/arg2 == 777/
{
	@entries = count();
	self->to = arg0;
}

pid$target:libc.so.6:memcpy:return
/self->to/
{
	@ret[(long)arg0, arg1 == self->to] = count();
	self->to = 0;
}

END
{
	printa("memcpy(to, from, 777): %@d\n", @entries);
	printa("returned at %d, the destination %d: %@d\n", @ret);
}
