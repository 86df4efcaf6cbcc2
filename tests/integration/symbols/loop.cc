/*
 * loop: calls geo::Box<double>::c every 20 ms until killed, and
 * write(-1, c, 0) (it fails: EBADF) with its address, for test_symbols.py's
 * dtrace -p runs (with and without libstdc++ for the consumer; from
 * another mount namespace).  noipa and the result used keep the call a
 * call.
 */
#include <unistd.h>

namespace geo {
template <class T> struct Box {
	__attribute__((noipa)) static T c(T x) { return x * 2 + 1; }
};
} // namespace geo

int main()
{
	volatile double sum = 0;

	for (int i = 0; i < 3000; i++) {
		sum = sum + geo::Box<double>::c(i);
		if (write(-1, (const void *)&geo::Box<double>::c, 0) == 0)
			return 1;
		usleep(20000);
	}
	return sum < 0;
}
