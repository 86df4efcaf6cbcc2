/*
 * root: the process's root directory, as illumos's DIF_VAR_ROOT; "/" for
 * a process that is not chrooted, else the path (in the mount tree) of
 * the directory it chrooted to, whose last component is printed here (the
 * test runs in a temporary copy).  cwd in the chroot is the whole path too.
 * zonename is "global": Linux has no zones.
 */
/* @setup: cc -O2 -o chroot_sdt chroot_sdt.c */
/* @args: -q -c ./chroot_sdt */

rt$target:::before
{
	printf("before: root %s, zone %s\n", root, zonename);
}

rt$target:::after
{
	printf("after: root .../%s, cwd .../%s/%s\n", basename(root),
	    basename(dirname(cwd)), basename(cwd));
}
