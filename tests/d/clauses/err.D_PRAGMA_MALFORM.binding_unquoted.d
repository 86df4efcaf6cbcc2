/* the version of #pragma D binding is a string */
#pragma D binding 1.0 myinline

inline int myinline = 3;

BEGIN
{
	trace(myinline);
}
