/* exec-success has no arguments (the Guide's proc table): args[0] is out of range */
proc:::exec-success
{
	trace(args[0]);
}
