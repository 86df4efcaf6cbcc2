/* string variables and comparisons: != with a literal compares its words inline, < calls the strcmp subprogram */
string last;

syscall::execve:return
/execname != "bash"/
{
	last = execname;
	trace(last < "m");
}
