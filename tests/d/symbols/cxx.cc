/*
 * cxx: C++ functions in a namespace, a class template and an anonymous
 * namespace, for run.demangle.d: the pid probes on their entries, and
 * cxx:::fn(c, a, r) with pointers to two of them.  noipa, and each result
 * used, keep g++ -O2 from turning the calls into jumps or clones
 * (.isra.0) with other names.  Waits after firing to be killed (dtrace
 * exits at the probe), so that its mappings are there to read.
 */
#include <cstdlib>
#include <sys/sdt.h>
#include <unistd.h>

namespace geo {
template <class T> struct Box {
	__attribute__((noipa)) static T c(T x) { return x * 2 + 1; }
	__attribute__((noipa)) static T b(T x) { return c(x) + 1; }
};
} // namespace geo

namespace {
__attribute__((noipa)) long a(long x)
{
	return (long)geo::Box<double>::b((double)x) + 1;
}
} // namespace

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1;
	long r = a(n);
	double (*volatile c)(double) = geo::Box<double>::c;
	long (*volatile pa)(long) = a;

	DTRACE_PROBE3(cxx, fn, c, pa, r);
	alarm(30);
	pause();
	return r == 0;
}
