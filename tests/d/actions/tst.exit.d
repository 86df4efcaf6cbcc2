/* exit() with a constant status and with a computed one, in several clauses */
tick-5s
{
	exit(0);
}

syscall::exit:entry
/arg0 != 0/
{
	printf("exit status %d\n", arg0);
	exit(arg0 & 0xff);
}
