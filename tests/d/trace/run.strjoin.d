/* strjoin(): joined strings, nested, as keys, cut at strsize (16 here: 15 characters and the NUL). */
/* @args: -q */
#pragma D option strsize=16

BEGIN
{
	a = "abc";
	b = strjoin(a, "-def");
	c = strjoin(b, strjoin("", ""));
	longer = strjoin("0123456789", "abcdefghij");
	printf("%s|%s|%s|%d|%d\n", b, c, longer, strlen(longer), strlen(strjoin(b, b)));
	@[strjoin("k", "v")] = count();
	exit(0);
}
