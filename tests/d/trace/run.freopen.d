/*
 * freopen() sends the output to a file (appended to), ftruncate() empties
 * it, freopen("") puts the output back; a file that cannot be opened is a
 * library error and the output stays.  The file is shown with system().
 */
/* @setup: rm -f freopen.out */
/* @args: -q -w */
BEGIN
{
	printf("to stdout 1\n");
	freopen("freopen.out");
	printf("lost to ftruncate\n");
	ftruncate();
	printf("to the file %d\n", 1);
	freopen("");
	printf("to stdout 2\n");
	freopen("freopen.%s", "out");
	printf("to the file %d\n", 2);
	freopen("");
	freopen("/nonexistent/dir/x");
	printf("to stdout 3\n");
	system("cat freopen.out");
	exit(0);
}
