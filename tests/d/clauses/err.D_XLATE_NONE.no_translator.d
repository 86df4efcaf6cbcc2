/* xlate<> without a translator for the two types */
struct in {
	int a;
};

struct out {
	int b;
};

BEGIN
{
	trace(xlate<struct out *>((struct in *)arg0)->b);
}
