/*
 * A translated pointer kept in a variable (illumos' dt_cg_xlate_expand):
 * curpsinfo and curlwpsinfo built into scratch memory, read through the
 * clause-local copy as through curpsinfo itself.
 */
BEGIN
{
	this->p = curpsinfo;
	this->l = curlwpsinfo;
	printf("pid %d ppid %d uid %d fname %d lwpid %d name %d\n",
	    this->p->pr_pid == pid, this->p->pr_ppid == ppid, this->p->pr_uid == uid,
	    this->p->pr_fname == execname, this->l->pr_lwpid == tid, this->l->pr_name == execname);
	printf("same as the inline: %d %d\n", this->p->pr_pid == curpsinfo->pr_pid,
	    this->l->pr_pri == curlwpsinfo->pr_pri);
	exit(0);
}
