/* #pragma ident, a lone #, #pragma D attributes and #pragma D binding */
#pragma ident "@(#)tst.pragma_other.d"
#
provider myp {
	probe p();
};

#pragma D attributes Evolving/Evolving/Common provider myp provider
#pragma D attributes Private/Private/Unknown provider myp args
#pragma D binding "1.0" myinline

inline int myinline = 3;

myp*:::p
{
	trace(myinline);
}
