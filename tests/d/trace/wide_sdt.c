/*
 * wide_sdt: fires wd:::str(&w) through <sys/sdt.h> with a struct of wide
 * strings (run.printf_wide_memory.d): "hi" ended in an array of 4, "abc"
 * filling an array of 3 (no terminator), an empty one, one with a
 * character outside ASCII, and a long double 2.5 with its neighbour.
 */
#include <stddef.h>
#include <sys/sdt.h>
#include <wchar.h>

static struct wide {
	wchar_t hi[4];
	wchar_t full[3];
	wchar_t empty[2];
	wchar_t latin[3];
	int after;
	long double ld;
	long double neg;
} w = { L"hi", { L'a', L'b', L'c' }, L"", { L'x', 0xe9, L'y' }, 7, 2.5L, -1e-300L };

int main(void)
{
	DTRACE_PROBE1(wd, str, &w);
	return 0;
}
