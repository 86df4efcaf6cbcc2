/* args[] alone names nothing of the library: the library is compiled for proc's translated args[] */
proc:::create
{
	trace(args[0]->pr_pid);
}
