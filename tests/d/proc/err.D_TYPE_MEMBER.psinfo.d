/* create's args[0] is a psinfo_t *: its members are illumos', checked when compiling */
proc:::create
{
	trace(args[0]->pr_nosuch);
}
