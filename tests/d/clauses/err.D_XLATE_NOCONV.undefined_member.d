/* a translator member that the translator does not define */
struct in { int a; };
struct out { int b; int c; };

translator struct out < struct in *P > { b = P->a; };

BEGIN
{
	trace(xlate<struct out>((struct in *)arg0).c);
}
