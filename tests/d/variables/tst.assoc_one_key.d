/* Associative arrays are created by assignment and indexed by any scalar or string key. */
BEGIN
{
	byname["init"] = 1;
	byname[execname] = byname["init"] + 1;
	bypid[pid] = timestamp;
	bypid[ppid] = bypid[pid];
	byptr[(char *)0] = "none";
}
