/* string variables and comparisons: == and < on strings call the strcmp subprogram */
string last;

syscall::execve:return
/execname != "bash"/
{
	last = execname;
	trace(last < "m");
}
