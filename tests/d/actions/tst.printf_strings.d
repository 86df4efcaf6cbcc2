/* printf %s and %S with strings and char arrays, %c with characters */
struct buf {
	char name[16];
};

BEGIN
{
	printf("%s %s %S\n", "literal", execname, probefunc);
	printf("%s\n", ((struct buf *)arg0)->name);
	printf("%c%c%c\n", 'x', (char)arg1, 65);
	printf("%s|%20s|%-20s|\n", stringof(arg0), copyinstr(arg0), cwd);
}
