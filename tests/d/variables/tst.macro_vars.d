/* The macro variables $pid, $ppid, $uid, $gid, $euid and $egid are integers; $$pid is a string. */
BEGIN
/pid != $pid && ppid != $ppid/
{
	ids = $uid + $gid + $euid + $egid;
	me = $$pid;
	ok = 1 / ($pid > 0);
}
