/*
 * dlopen()s ./libpidtest.so, waits for the tracer to see it (argv[2]
 * milliseconds), then calls its f() N times (argv[1]).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1, ms = argc > 2 ? atoi(argv[2]) : 2000, s = 0;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	void *h = dlopen("./libpidtest.so", RTLD_NOW);
	int (*f)(int);

	if (h == NULL || (f = (int (*)(int))dlsym(h, "f")) == NULL) {
		fprintf(stderr, "dlopener: %s\n", dlerror());
		return 1;
	}
	nanosleep(&ts, NULL);
	for (int i = 0; i < n; i++)
		s += f(i);
	return s == 0;
}
