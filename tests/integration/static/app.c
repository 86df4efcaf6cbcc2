/*
 * The traced program of the static-probe tests; compiled as C and as C++,
 * into an executable or a shared library.  Values are functions of the
 * iteration number so that the test can predict every argument.
 *
 *   app N [wait]   fire every probe N times and print whether
 *                  tst:::gate-check is enabled before and after; with
 *                  "wait", first wait up to 10 s for a tracer to enable it
 *   app watch S    print each change of tst:::gate-check's ENABLED() for
 *                  S seconds, one line per change
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "probes.h"

#ifdef __cplusplus
extern "C"
#endif
    int
    app_main(int argc, char **argv);

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int watch(double secs)
{
	int last = TST_GATE_CHECK_ENABLED();
	double end = now() + secs;

	printf("enabled %d\n", last);
	fflush(stdout);
	while (now() < end) {
		int e = TST_GATE_CHECK_ENABLED();

		if ((e != 0) != (last != 0)) {
			printf("enabled %d\n", e);
			fflush(stdout);
			last = e;
		}
		usleep(2000);
	}
	return 0;
}

int app_main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
	double end = now() + 10;
	char buf[32], mbuf[32];

	if (argc > 2 && strcmp(argv[1], "watch") == 0)
		return watch(strtod(argv[2], NULL));
	while (argc > 2 && strcmp(argv[2], "wait") == 0 && !TST_GATE_CHECK_ENABLED() && now() < end)
		usleep(1000);
	printf("enabled-before %d\n", TST_GATE_CHECK_ENABLED() != 0);
	for (long i = 0; i < n; i++) {
		TST_GATE_CHECK((int)i);
		TST_INTS((int8_t)(i % 256 - 128), (uint8_t)(255 - i % 256), (int16_t)(-30000 + i),
			 (uint16_t)(65535 - i), (int32_t)(-2000000000 + i),
			 (uint32_t)(4000000000u + i));
		snprintf(buf, sizeof(buf), "wide-%ld", i);
		snprintf(mbuf, sizeof(mbuf), "m%ld", i * 3);
		TST_WIDE((int64_t)(-5000000000000LL - i), (uint64_t)(18000000000000000000ULL + i),
			 buf, mbuf, i * 1000, (void *)(uintptr_t)(0x1000 + i));
		snprintf(buf, sizeof(buf), "s%ld", i);
		TST_STR(buf, (int)strlen(buf));
		TST_NOARGS();
		TST_TWELVE((int)-i, (unsigned)(3000000000u + i), (short)-2, (char)'A', -7L * i,
			   (unsigned long)(1UL << 63) + i, (int8_t)-8, (uint8_t)250, (int16_t)-1234,
			   (uint16_t)65000, (int64_t)(-(1LL << 40)), (uint64_t)(~0ULL - i));
	}
	printf("enabled-after %d\n", TST_GATE_CHECK_ENABLED() != 0);
	return 0;
}
