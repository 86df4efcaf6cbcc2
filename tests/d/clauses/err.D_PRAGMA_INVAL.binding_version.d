/* #pragma D binding takes a version "major.minor[.micro]", not any string */
#pragma D binding "abc" myinline

inline int myinline = 3;

BEGIN
{
	trace(myinline);
}
