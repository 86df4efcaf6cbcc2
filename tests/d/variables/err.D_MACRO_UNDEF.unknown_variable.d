/* Only the documented macro variables ($pid, $uid, ...) exist. */
BEGIN
{
	x = $nosuch;
}
