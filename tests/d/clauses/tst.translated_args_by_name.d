/* a translated argument takes the native argument of the same name, not of the same position */
struct in { int a; };
struct out { int b; };

translator struct out < struct in *P > { b = P->a; };

provider myp {
	probe q(struct in *p, int x) : (int x, struct out *p);
};

myp*:::q
{
	trace(args[0]);
	trace(args[1]->b);
}
