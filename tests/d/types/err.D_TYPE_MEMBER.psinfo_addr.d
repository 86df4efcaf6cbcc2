/* psinfo_t has the members a Linux task can give: pr_addr (a kernel address) is not one. */
BEGIN
{
	trace(curpsinfo->pr_addr);
}
