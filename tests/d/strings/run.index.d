/*
 * index(), rindex() (with and without a start position), strstr(),
 * strchr(), strrchr(), as illumos's dtrace_dif_subr: Perl's rules for the
 * positions (index() clamps a negative start to 0, rindex() one past the
 * end to the length; an empty substring is found at the start position,
 * even outside the string), the NUL is a place strchr() finds, a char
 * argument is taken as a char.  Expected values by hand from illumos's
 * code; tests/unit/libdtrace/test_bpf_strings.c checks the same bodies
 * on the host.
 */
/* @args: -q */

BEGIN
{
	s = "/usr/lib/../bin/dtrace";
	printf("%d %d %d %d\n", index(s, "/"), index(s, "/", 2), rindex(s, "/"), rindex(s, "/", 10));
	printf("%d %d %d %d\n", index("", ""), index("", "", 7), rindex("", "", -7), index("", "a"));
	printf("%d %d %d %d\n", index("abc", ""), index("abc", "", 5), index("abc", "c", 5),
	    index("abc", "c", -5));
	printf("%d %d %d\n", index("abc", "abcd"), index("aaa", "aa", 1), index(s, "dtrace"));
	printf("%d %d %d %d\n", rindex("abc", ""), rindex("abc", "", -1), rindex("abc", "a", -1),
	    rindex("abc", "c", 100));
	printf("%d %d %d\n", rindex("abcabc", "bc"), rindex("abcabc", "bc", 3), rindex("", "a"));
	printf("[%s] [%s] [%s] [%s]\n", strstr(s, "lib"), strstr(s, ""), strstr("", ""),
	    strstr("abcbc", "bc"));
	printf("[%s] [%s] [%s]\n", strchr(s, 'b'), strchr(s, '\0'), strchr("abc", 'a' + 256));
	printf("[%s] [%s] [%s]\n", strrchr(s, '/'), strrchr(s, 'r'), strrchr("a/b/c", 0));
	i = 1;
	printf("%d %d\n", index(s, substr(s, 4, 4)), rindex(s, strchr(s, 'b'), i + 20));
	exit(0);
}
