/* the macro variables $pid, $ppid, $uid, $gid, $euid and $egid, bare and as strings */
BEGIN
/pid != $pid/
{
	trace($ppid);
	trace($uid + $gid);
	trace($euid == $egid);
	trace($$pid);
}
