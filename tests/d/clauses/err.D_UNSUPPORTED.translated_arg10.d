/*
 * A translated argument made of native argument 10: args[] is rewritten to
 * xlate<T>(argK), and arg0 to arg9 are the argK there are (dtrace -e finds it).
 */
struct in { int a; };
struct out { int b; };

translator struct out < struct in *P > { b = P->a; };

provider myp {
	probe q(int a0, int a1, int a2, int a3, int a4, int a5, int a6, int a7, int a8, int a9,
	    struct in *p) : (struct out *p);
};

myp*:::q
{
	trace(args[0]->b);
}
