/* a version's minor number holds 12 bits: 4096 is out of range */
#pragma D binding "1.4096" myinline

inline int myinline = 3;

BEGIN
{
	trace(myinline);
}
