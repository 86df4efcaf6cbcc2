/* printf flags, field widths, precisions, and widths and precisions given by '*' */
BEGIN
{
	printf("%-10s|%10s|%.2s|\n", execname, execname, execname);
	printf("%+d|% d|%05d|%-5d|\n", 1, 2, 3, 4);
	printf("%#o|%#x|%#X|\n", 8, 255, 255);
	printf("%*d|%-*d|\n", 8, pid, 8, pid);
	printf("%.*s|%*.*s|\n", 3, execname, 10, 2, execname);
	printf("%'d\n", 1000000);
	printf("%?p|\n", arg0);
}
