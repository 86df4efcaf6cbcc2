/* printf %A needs a user symbol address (or -p/-c), not a plain integer */
BEGIN
{
	printf("%A\n", arg0);
}
