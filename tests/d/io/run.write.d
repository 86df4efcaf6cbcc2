/*
 * 8 writes of 64 KiB with O_DIRECT to a file under /var/tmp, then fsync,
 * then one O_DIRECT read of 64 KiB (iotrig).  Requests are counted when
 * they fall in the file's blocks (whichever thread issues them: the
 * target, a kworker), in the target's phase 1 (writes) or 2 (read).
 * Each write waits for its request before the next one is made, so none
 * is merged: exactly 8 starts of 65536 bytes, B_WRITE, on the file's
 * device (stat(2)'s major and minor, in devinfo_t and b_edev, its sysfs
 * name), not B_ASYNC (an O_DIRECT write is REQ_SYNC), of no file known to
 * the block layer; a done for each, for the same sector, with no error
 * (arg1); then exactly 1 read start and done.
 */
/* @setup: ./build.sh */
/* @skipunless: test -b "$(df --output=source /var/tmp | tail -1)" || { echo /var/tmp is not on a block device; false; } */
/* @args: -q -c "./iotrig 8 65536" */
pid$target:a.out:report_dev:entry
{
	maj = arg0;
	mnr = arg1;
	name = copyinstr(arg2);
}

pid$target:a.out:report_extent:entry
{
	lo = arg0;
	hi = arg0 + arg1;
}

pid$target:a.out:phase:entry
{
	ph = arg0;
}

io:::start
/(ph == 1 || ph == 2) && args[0]->b_blkno >= lo && args[0]->b_blkno < hi/
{
	@n[ph, "start", (args[0]->b_flags & B_WRITE) != 0, (args[0]->b_flags & B_READ) != 0,
	    (args[0]->b_flags & B_ASYNC) != 0,
	    args[1]->dev_major == maj && args[1]->dev_minor == mnr &&
	    getmajor(args[0]->b_edev) == maj && getminor(args[0]->b_edev) == mnr &&
	    args[1]->dev_statname == name && args[1]->dev_pathname == strjoin("/dev/", name) &&
	    args[2]->fi_name == "<none>"] = count();
	@b[ph, "start"] = sum(args[0]->b_bcount);
	started[args[0]->b_blkno] = ph;
}

io:::done
/(ph == 1 || ph == 2) && args[0]->b_blkno >= lo && args[0]->b_blkno < hi/
{
	@n[ph, "done", (args[0]->b_flags & B_WRITE) != 0, (args[0]->b_flags & B_READ) != 0,
	    (args[0]->b_flags & B_ASYNC) != 0, started[args[0]->b_blkno] == ph && arg1 == 0] = count();
	@b[ph, "done"] = sum(args[0]->b_bcount);
	started[args[0]->b_blkno] = 0;
}

END
{
	printa("phase %d %s write %d read %d async %d ok %d: %@d\n", @n);
	printa("phase %d %s bytes: %@d\n", @b);
}
