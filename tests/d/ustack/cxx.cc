/*
 * cxx: the chain of chain.c in C++, for demangled names: main ->
 * (anonymous namespace)::a(long) -> geo::Box<double>::b(double) ->
 * geo::Box<double>::c(double), where c fires cxx:::leaf N times
 * (argv[1]).  noipa and the results used keep gcc -O2 from making the
 * calls jumps (.isra clones whose frames are not on the stack).
 */
#include <cstdlib>
#include <sys/sdt.h>

volatile long sink;

namespace geo
{
template <typename T> struct Box {
	T scale;

	__attribute__((noipa)) static long c(T x)
	{
		sink += (long)x;
		DTRACE_PROBE1(cxx, leaf, (long)x);
		return sink;
	}

	__attribute__((noipa)) long b(T x)
	{
		return c(x * scale + 1) + 1;
	}
};
} // namespace geo

namespace
{
__attribute__((noipa)) long a(long x)
{
	geo::Box<double> bx = { 2.0 };

	return bx.b((double)x) + 1;
}
} // namespace

int main(int argc, char **argv)
{
	long n = argc > 1 ? std::atol(argv[1]) : 1;
	long r = 0;

	for (long i = 0; i < n; i++)
		r += a(i);
	return r == 42;
}
