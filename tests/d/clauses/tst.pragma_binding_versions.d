/* #pragma D binding versions: a major number alone, two or three parts, the largest */
#pragma D binding "1" a
#pragma D binding "1.0" b
#pragma D binding "1.6.3" c
#pragma D binding "255.4095.4095" d

inline int a = 1;
inline int b = 2;
inline int c = 3;
inline int d = 4;

BEGIN
{
	trace(a + b + c + d);
}
