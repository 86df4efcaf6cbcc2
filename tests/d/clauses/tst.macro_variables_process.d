/* $pgid, $sid, $projid and $taskid are macro variables, and $target is 0 without -c or -p */
BEGIN
{
	trace($pgid);
	trace($sid);
	trace($projid);
	trace($taskid);
	trace($target);
}
