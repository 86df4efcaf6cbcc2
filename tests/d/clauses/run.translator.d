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
	this->p = (struct in *)alloca(sizeof (struct in));
	this->p->a = 21;
	this->p->s = (char *)alloca(4);
	this->p->s[0] = 104;
	this->p->s[1] = 105;
	trace(xlate<struct out>(this->p).b);
	trace(xlate<struct out>(this->p).t);
	trace(xlate<struct out *>(this->p)->c);
	printf("%d %s\n", xlate<struct out *>(this->p)->b, xlate<struct out *>(this->p)->t);
}
BEGIN { exit(0); }
