/* An enumerator's value may be an integer inline. */
inline int N = 3;
enum e { A = N, B };

BEGIN
{
	ok = 1 / (A == 3);
	ok = 1 / (B == 4);
}
