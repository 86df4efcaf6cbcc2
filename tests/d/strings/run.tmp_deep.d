/*
 * String subroutines nested ten deep at strsize 1024, three times in a
 * clause (the results compared and measured, not recorded): a nesting
 * holds the temporaries live at once (a result waiting for its caller),
 * and a statement's are free after it, so the clause fits the 32 KiB
 * scratch value (with every temporary apart it needed 85 KiB:
 * D_CG_LIMIT, before).
 */
/* @args: -q -x strsize=1024 */

BEGIN
{
	printf("%d %d\n", strlen(tolower(toupper(tolower(toupper(tolower(toupper(tolower(toupper(tolower(toupper("/usr/Lib/x"))))))))))), tolower(toupper(tolower(toupper(tolower(toupper(tolower(toupper(tolower(toupper("/usr/Lib/x")))))))))) == "/usr/lib/x");
	printf("%d %d\n", strlen(toupper(tolower(toupper(tolower(toupper(substr(tolower(substr(toupper(substr(tolower(substr(toupper(substr(tolower("mixed/Case"), 0)), 0)), 0)), 0)), 0))))))), toupper(tolower(toupper(tolower(toupper(substr(tolower(substr(toupper(substr(tolower(substr(toupper(substr(tolower("mixed/Case"), 0)), 0)), 0)), 0)), 0)))))) == "MIXED/CASE");
	printf("%d %d\n", strlen(dirname(dirname(dirname(dirname(dirname(dirname(dirname(dirname(dirname(dirname("/a/b/c/d/e/f/g/h/i/j/k"))))))))))), dirname(dirname(dirname(dirname(dirname(dirname(dirname(dirname(dirname(dirname("/a/b/c/d/e/f/g/h/i/j/k")))))))))) == "/a");
	exit(0);
}
