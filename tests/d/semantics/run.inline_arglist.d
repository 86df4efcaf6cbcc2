/* An inline in an argument list keeps the arguments after it (they were dropped). */
inline char Q = 2;
inline string S = "s";

BEGIN
{
	printf("%d %d %s %s %d\n", 1, Q, S, "x", Q + 1);
	exit(0);
}
