/* exec's args[0] is a string, exit's an int: one clause cannot use args[] of both */
proc:::exec,
proc:::exit
{
	trace(args[0]);
}
