/*
 * fbt where the kernel lets fentry programs load: dd's 7 reads of 12345
 * bytes, counted at entry by the typed size argument and at return by
 * the value read (skipped where fentry is refused, with the reason).
 * @skipunless: dtrace -l -n fbt::vfs_read:entry
 * @args: -q -c "dd if=/dev/zero of=/dev/null bs=12345 count=7 status=none"
 */
fbt::vfs_read:entry
/pid == $target && args[2] == 12345/
{
	@entries = count();
	self->in = 1;
}

fbt::vfs_read:return
/self->in && args[1] == 12345/
{
	@returns = count();
	self->in = 0;
}

END
{
	printa("entries %@d\n", @entries);
	printa("returns %@d\n", @returns);
}
