/* An integer inline is a constant and may size an array. */
inline int N = 4;
int a[N];

BEGIN
{
	ok = 1 / (sizeof (a) == 16);
}
