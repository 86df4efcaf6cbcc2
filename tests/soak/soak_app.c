/*
 * soak_app -- the target of the soak test (test_soak.py).  It waits for
 * lines on stdin; on "round R K", each of its THREADS threads creates a
 * provider "soak" with module "rRtI", adds probe tick(int), enables it,
 * waits (5 s at most) for a tracer on it, fires it K times with argument
 * I, prints "fired rRtI N" (N: the fires made while traced, K or 0 when no
 * tracer came), and destroys the provider.  "rss" prints "rss KB" (VmRSS);
 * "quit" ends.  So providers come and go in threads for as long as the
 * test runs, and each tracer can know exactly how many fires to expect.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "usdt.h"

#define THREADS 4

static long round_no, fires;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *worker(void *arg)
{
	static const usdt_argtype_t one[] = { USDT_ARG_INT32 };
	long i = (long)(intptr_t)arg, n = 0;
	char mod[64];
	usdt_provider_t *prov;
	usdt_probe_t *tick = NULL;
	int err = 0;
	double end = now() + 5.0;

	snprintf(mod, sizeof(mod), "r%ldt%ld", round_no, i);
	if ((prov = usdt_provider_create("soak", mod, NULL, &err)) == NULL ||
	    (tick = usdt_probe_create(prov, "work", "tick", 1, one)) == NULL ||
	    usdt_provider_enable(prov) != 0) {
		pthread_mutex_lock(&out_lock);
		printf("error %s %s\n", mod,
		       prov != NULL ? usdt_provider_errmsg(prov) : usdt_strerror(err));
		fflush(stdout);
		pthread_mutex_unlock(&out_lock);
		usdt_provider_destroy(prov);
		return NULL;
	}
	while (!usdt_probe_is_enabled(tick) && now() < end)
		usleep(1000);
	if (usdt_probe_is_enabled(tick))
		for (; n < fires; n++)
			usdt_probe_fire1(tick, (uint64_t)i);
	usdt_provider_destroy(prov);
	pthread_mutex_lock(&out_lock);
	printf("fired %s %ld\n", mod, n);
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
	return NULL;
}

static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	long kb = -1;

	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "VmRSS: %ld", &kb) == 1)
			break;
	if (f != NULL)
		fclose(f);
	return kb;
}

int main(void)
{
	char line[128];

	printf("ready\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin) != NULL) {
		if (sscanf(line, "round %ld %ld", &round_no, &fires) == 2) {
			pthread_t t[THREADS];

			for (long i = 0; i < THREADS; i++)
				pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
			for (int i = 0; i < THREADS; i++)
				pthread_join(t[i], NULL);
			printf("round done\n");
		} else if (strncmp(line, "rss", 3) == 0) {
			printf("rss %ld\n", rss_kb());
		} else if (strncmp(line, "quit", 4) == 0) {
			break;
		}
		fflush(stdout);
	}
	return 0;
}
