/* psinfo_t (procfs.d's, illumos' layout) has no member of that name. */
BEGIN
{
	trace(curpsinfo->pr_nosuch);
}
