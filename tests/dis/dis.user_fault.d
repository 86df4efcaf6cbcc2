/* reads of memory that can fault (a user string and a pointer): the fault block and the ERROR clauses */
syscall::open:entry
{
	trace(copyinstr(arg0));
	trace(*(int *)arg1);
}
