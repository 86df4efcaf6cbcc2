/*
 * The errno names are D constants (errno.d): the 7 failed opens of
 * data.txt.missing are ENOENT, none EACCES.  The program names the
 * constants alone: the library comes in for them.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./opener data.txt 7" */
syscall::openat:return
/pid == $target && errno != 0/
{
	@n[errno == ENOENT ? "ENOENT" : errno == EACCES ? "EACCES" : "other", ENOENT, EACCES] =
	    count();
}

END
{
	printa("%s %d %d %@d\n", @n);
}
