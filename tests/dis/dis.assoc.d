/* a declared associative array with a two-part key (an integer and a string), read and updated */
int opens[int, string];

syscall::open:entry
{
	opens[pid, execname] = opens[pid, execname] + 1;
	trace(opens[pid, execname]);
}
