/* curpsinfo's members are read from the kernel when the probe fires: there is nothing to assign. */
BEGIN
{
	curpsinfo->pr_pid = 1;
}
