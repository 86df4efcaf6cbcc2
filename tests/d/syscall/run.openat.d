/*
 * syscall entry and return on a target that opens data.txt 7 times
 * (reading 3 bytes each time) and data.txt.missing 7 times: each count is
 * exact.  At return arg0 and arg1 are both the value (illumos): a file
 * descriptor, or -1 with errno 2 (ENOENT) for the missing file (Linux's raw
 * -ENOENT is not seen).  At entry arg0 is the directory (AT_FDCWD, an
 * int) and arg1 the path.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./opener data.txt 7" */
syscall::openat:entry
/pid == $target/
{
	self->which = copyinstr(arg1) == "data.txt" ? 1 : copyinstr(arg1) == "data.txt.missing" ? 2 : 0;
}

syscall::openat:entry
/self->which != 0 && (int)arg0 == -100/
{
	@n[probefunc, probename, self->which == 1 ? "data.txt" : "data.txt.missing"] = count();
}

syscall::openat:return
/self->which == 1 && arg0 >= 0 && arg0 == arg1 && errno == 0/
{
	@n[probefunc, probename, "a descriptor"] = count();
}

syscall::openat:return
/self->which == 2 && arg0 == -1 && arg1 == -1 && errno == 2/
{
	@n[probefunc, probename, "-1, errno ENOENT"] = count();
}

syscall::openat:return
{
	self->which = 0;
}

syscall::read:entry
/pid == $target && arg2 == 3/
{
	@n[probefunc, probename, "3 bytes"] = count();
}

syscall::read:return
/pid == $target && arg0 == 3/
{
	@n[probefunc, probename, "3"] = count();
}

END
{
	printa("%s:%s %s %@d\n", @n);
}
