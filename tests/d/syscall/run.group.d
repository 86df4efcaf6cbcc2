/*
 * Probes sharing a program (every enabled syscall entry probe is in one
 * group program): each clause runs for the probes it enables and no
 * other, and the built-in names, epid and id are the firing probe's.  The
 * target makes 3 getpid, 5 getppid and 4 gettid calls.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./calls 3 5 4" */
syscall::getpid:entry,
syscall::getppid:entry
/pid == $target/
{
	@both[probeprov, probemod == "" ? "(no module)" : probemod, probefunc, probename] = count();
	@epids[probefunc, epid] = count();
}

syscall::getppid:entry
/pid == $target/
{
	@one[probefunc, epid] = count();
	self->ppid_id = id;
}

syscall::gettid:entry
/pid == $target/
{
	@ids["gettid:entry id differs from getppid:entry's", id != self->ppid_id && id != 0] =
	    count();
}

syscall::gettid:return
/pid == $target/
{
	@ret[probefunc, probename, arg0 == tid && arg1 == tid] = count();
}

END
{
	printa("%s %s %s:%s %@d\n", @both);
	printa("first clause: %s epid %d: %@d\n", @epids);
	printa("second clause: %s epid %d: %@d\n", @one);
	printa("%s: %d %@d\n", @ids);
	printa("%s:%s arg0 == arg1 == tid: %d %@d\n", @ret);
}
