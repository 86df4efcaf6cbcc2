/*
 * curpsinfo and curlwpsinfo point to the Guide's psinfo_t and lwpsinfo_t:
 * the members read here, with their types; pr_fname and pr_psargs are
 * char arrays whose values are strings.  With the D library (procfs.d),
 * psinfo_t has illumos' LP64 layout; the built-in one of -xnolibs is
 * checked by tests/integration/test_dlib.py.
 */
BEGIN
{
	a = curpsinfo->pr_pid + curpsinfo->pr_ppid + curpsinfo->pr_pgid + curpsinfo->pr_sid;
	b = curpsinfo->pr_uid + curpsinfo->pr_euid + curpsinfo->pr_gid + curpsinfo->pr_egid;
	c = curpsinfo->pr_nlwp + curlwpsinfo->pr_lwpid + curlwpsinfo->pr_onpro;
	d = curpsinfo->pr_fname == execname && curpsinfo->pr_psargs != "";
	e = strjoin(curpsinfo->pr_fname, curlwpsinfo->pr_name);
	@[curpsinfo->pr_psargs] = count();
	printf("%s %s %d\n", curpsinfo->pr_fname, curpsinfo->pr_psargs, curpsinfo->pr_pid);
	ok = 1 / (sizeof (curpsinfo->pr_pid) == 4 && sizeof (curlwpsinfo->pr_lwpid) == 4);
	ok = 1 / (offsetof(psinfo_t, pr_fname) == 136 && offsetof(psinfo_t, pr_psargs) == 152 &&
	    offsetof(psinfo_t, pr_lwp) == 288);
}
