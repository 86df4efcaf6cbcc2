/* a translator, then xlate<struct out>(p).member and xlate<struct out *>(p)->member */
struct in {
	int a;
	char *s;
};

struct out {
	int b;
	string t;
	int c;
};

translator struct out < struct in *P > {
	b = P->a;
	t = stringof(P->s);
	c = P->a * 2;
};

BEGIN
{
	this->p = (struct in *)arg0;
	trace(xlate<struct out>(this->p).b);
	trace(xlate<struct out>(this->p).t);
	trace(xlate<struct out *>(this->p)->c);
	printf("%d %s\n", xlate<struct out *>(this->p)->b, xlate<struct out *>(this->p)->t);
}
