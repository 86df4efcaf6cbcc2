/* The kernel-only names stay reserved: fds[] cannot become a program's own array. */
BEGIN
{
	fds[0] = 1;
}
