/*
 * The target's waits for its I/O (iotrig: 8 O_DIRECT writes, each waited
 * for and followed by a 1 ms sleep, then fsync): wait-start fires in the
 * thread that blocks in an I/O wait, wait-done in the same thread when it
 * runs again, once each, in pairs, and only in the system calls that do
 * I/O (pwrite64, fsync), never in its sleeps (clock_nanosleep: 8 of them).
 * They describe no request: b_bcount 0, dev_name and fi_name "<none>".
 */
/* @setup: ./build.sh */
/* @skipunless: test -b "$(df --output=source /var/tmp | tail -1)" || { echo /var/tmp is not on a block device; false; } */
/* @args: -q -c "./iotrig 8 65536" */
self int waiting, in_io;
int unpaired, described, outside, sleeps;

pid$target:a.out:phase:entry
{
	ph = arg0;
}

syscall::pwrite64:entry,
syscall::fsync:entry
/pid == $target/
{
	self->in_io = 1;
}

syscall::pwrite64:return,
syscall::fsync:return
/pid == $target/
{
	self->in_io = 0;
}

syscall::clock_nanosleep:entry
/pid == $target && ph == 1/
{
	sleeps++;
}

io:::wait-start
/pid == $target && ph == 1/
{
	starts++;
	outside += !self->in_io;
	unpaired += self->waiting;
	self->waiting = 1;
	described += args[0]->b_bcount != 0 || args[0]->b_flags != 0 ||
	    args[1]->dev_name != "<none>" || args[2]->fi_name != "<none>";
}

io:::wait-done
/pid == $target && ph == 1/
{
	dones++;
	unpaired += !self->waiting;
	self->waiting = 0;
	described += args[0]->b_bcount != 0 || args[1]->dev_statname != "<none>" ||
	    args[2]->fi_pathname != "<none>";
}

END
{
	printf("waits: %d, as many done: %d, unpaired: %d, describing a request: %d\n",
	    starts > 0, dones == starts, unpaired, described);
	printf("sleeps: %d, waits outside pwrite64 and fsync: %d\n", sleeps, outside);
}
