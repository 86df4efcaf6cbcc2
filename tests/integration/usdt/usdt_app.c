/*
 * usdt_app -- the traced program of the libusdt tests.  It declares
 * provider "rtp" (module "usdtapp") at run time and prints the image path
 * first ("path P"), then what its mode does:
 *
 *   usdt_app fire N [twelve]
 *                        wait (60 s at most; and for a line on stdin with
 *                        USDT_APP_GO set) for a tracer on its probes
 *                        (or on rtp:::twelve alone),
 *                        then fire every probe N times, alternating the
 *                        array and the fixed-arity entry points
 *   usdt_app watch S     print "enabled E" whenever rtp:::gate changes, S s
 *   usdt_app stress      16 threads fire rtp:::spin without pause; each
 *                        line "burst K" on stdin makes all 16 fire
 *                        rtp:::burst K times each, then prints "burst done
 *                        D" (D: fires that reached the probe); "quit" ends
 *   usdt_app fork N      after the tracer is on, fork: parent and child
 *                        each fire rtp:::forked(pid, i) N times
 *   usdt_app destroy     destroy the provider, print "destroyed", sleep 30 s
 *   usdt_app exit        exit without destroying (the file must go anyway)
 *   usdt_app late N      add probe rtp:::late after enable (a rebuild),
 *                        print its new path, then as "fire N" for late
 *   usdt_app reenable N  disable, enable again, print the new path, then
 *                        fire rtp:::gate N times once traced
 *   usdt_app twins N     a second provider rtp in module usdtapp2 (its path
 *                        printed "path2 P"); once both gates are traced,
 *                        fire the first N times (arg 1), the second 2N (arg 2)
 *   usdt_app trunc       once traced, fire rtp:::ints once with values
 *                        wider than the declared types (0x1ff as INT8,
 *                        0x12345 as UINT16, ...): they arrive truncated
 *   usdt_app churn N [traced]
 *                        16 threads fire and test is-enabled without pause
 *                        while the main thread disables, enables, adds a
 *                        probe (a rebuild) N times, then destroys the
 *                        provider under them; prints "churn done S" (S:
 *                        fires that found rtp:::burst enabled); "traced"
 *                        first waits for a tracer on rtp:::burst
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "usdt.h"

static usdt_provider_t *prov;
static atomic_bool quitting_churn;
static usdt_probe_t *p_ints, *p_wide, *p_twelve, *p_noargs, *p_gate, *p_spin, *p_burst, *p_forked;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static usdt_probe_t *probe(const char *name, int argc, const usdt_argtype_t *t)
{
	usdt_probe_t *p = usdt_probe_create(prov, "main", name, argc, t);

	if (p == NULL) {
		fprintf(stderr, "usdt_probe_create %s: %s\n", name, usdt_provider_errmsg(prov));
		exit(1);
	}
	return p;
}

/*
 * Wait (60 s at most: exit 3 after that) until a tracer has every probe of
 * the list enabled.  With USDT_APP_GO set, then wait for a line on stdin
 * too: a semaphore rises when a uprobe is registered, and bpftrace binds
 * its program to the probe a moment later, so the test says when it is.
 */
static void wait_enabled(usdt_probe_t *const *list, int n)
{
	double end = now() + 60;
	char line[64];

	for (int i = 0; i < n; i++)
		while (!usdt_probe_is_enabled(list[i]))
			if (now() > end) {
				fprintf(stderr, "usdt_app: no tracer came\n");
				exit(3);
			} else {
				usleep(1000);
			}
	if (getenv("USDT_APP_GO") != NULL && fgets(line, sizeof(line), stdin) == NULL) {
		fprintf(stderr, "usdt_app: no go line\n");
		exit(3);
	}
	printf("enabled-before %d\n", usdt_probe_is_enabled(p_gate) != 0);
	fflush(stdout);
}

static void fire_all(long n)
{
	char s[32];

	for (long i = 0; i < n; i++) {
		snprintf(s, sizeof(s), "str-%ld", i);
		if (i % 2 == 0) {
			usdt_arg_t ints[6] = { { .i = i % 256 - 128 },	 { .u = 255 - i % 256 },
					       { .i = -30000 + i },	 { .u = 65535 - i },
					       { .i = -2000000000 + i }, { .u = 4000000000u + i } };
			usdt_arg_t wide[6] = { { .i = -5000000000000LL - i },
					       { .u = 18000000000000000000ULL + i },
					       { .p = (void *)(uintptr_t)(0x1000 + i) },
					       { .s = s },
					       { .d = 0.5 * (double)i },
					       { .u = (uint64_t)i } };
			usdt_probe_fire(p_ints, 6, ints);
			usdt_probe_fire(p_wide, 6, wide);
		} else {
			usdt_probe_fire6(p_ints, (uint64_t)(i % 256 - 128),
					 (uint64_t)(255 - i % 256), (uint64_t)(-30000 + i),
					 (uint64_t)(65535 - i), (uint64_t)(-2000000000 + i),
					 (uint64_t)(4000000000u + i));
			usdt_probe_fire6(p_wide, (uint64_t)(-5000000000000LL - i),
					 18000000000000000000ULL + (uint64_t)i,
					 (uint64_t)(0x1000 + i), (uint64_t)(uintptr_t)s,
					 usdt_double_bits(0.5 * (double)i), (uint64_t)i);
		}
		{
			usdt_arg_t a[12];

			for (int k = 0; k < 12; k++)
				a[k].i = (k % 2 ? -1 : 1) * (int64_t)(1000 * k + i);
			usdt_probe_fire(p_twelve, 12, a);
		}
		usdt_probe_fire0(p_noargs);
		usdt_probe_fire1(p_gate, (uint64_t)i);
	}
}

/* ---------------------------------------------------------------- churn */

static void *churner(void *arg)
{
	uint64_t tid = (uint64_t)(intptr_t)arg, seq = 0, seen = 0;

	while (!atomic_load(&quitting_churn)) {
		usdt_probe_fire2(p_spin, tid, seq++);
		seen += usdt_probe_is_enabled(p_burst) != 0;
		usdt_probe_fire(p_burst, 2, (usdt_arg_t[]){ { .u = tid }, { .u = seq } });
	}
	return (void *)(uintptr_t)seen;
}

static int churn(long n, bool traced)
{
	static const usdt_argtype_t one[] = { USDT_ARG_INT32 };
	pthread_t t[16];
	char name[32];
	uintptr_t seen = 0;

	if (traced)
		wait_enabled(&p_burst, 1);
	for (int i = 0; i < 16; i++)
		pthread_create(&t[i], NULL, churner, (void *)(intptr_t)i);
	if (traced) /* let the threads fire into the traced image a while */
		usleep(200000);
	for (long i = 0; i < n; i++) {
		if (usdt_provider_disable(prov) != 0 || usdt_provider_enable(prov) != 0) {
			fprintf(stderr, "churn %ld: %s\n", i, usdt_provider_errmsg(prov));
			return 1;
		}
		snprintf(name, sizeof(name), "c%ld", i);
		if (usdt_probe_create(prov, "main", name, 1, one) == NULL) {
			fprintf(stderr, "churn %ld: %s\n", i, usdt_provider_errmsg(prov));
			return 1;
		}
	}
	usdt_provider_destroy(prov); /* the threads go on firing into nothing */
	usleep(20000);
	atomic_store(&quitting_churn, true);
	for (int i = 0; i < 16; i++) {
		void *s;

		pthread_join(t[i], &s);
		seen += (uintptr_t)s;
	}
	printf("churn done %lu\n", (unsigned long)seen);
	return 0;
}

/* ---------------------------------------------------------------- stress */

static atomic_int burst_gen, burst_left;
static atomic_long burst_delivered;
static long burst_k;
static atomic_bool quitting;

static void *spinner(void *arg)
{
	int tid = (int)(intptr_t)arg, seen = 0;
	uint64_t seq = 0;

	while (!atomic_load(&quitting)) {
		int g = atomic_load(&burst_gen);

		usdt_probe_fire2(p_spin, (uint64_t)tid, seq++);
		if (g != seen) {
			long d = 0;

			for (long i = 0; i < burst_k; i++) {
				/* count the fires that reached the probe function */
				d += usdt_probe_is_enabled(p_burst) != 0;
				usdt_probe_fire2(p_burst, (uint64_t)tid, (uint64_t)i);
			}
			atomic_fetch_add(&burst_delivered, d);
			seen = g;
			atomic_fetch_sub(&burst_left, 1);
		}
	}
	return NULL;
}

static int stress(void)
{
	pthread_t t[16];
	char line[64];

	for (int i = 0; i < 16; i++)
		pthread_create(&t[i], NULL, spinner, (void *)(intptr_t)i);
	while (fgets(line, sizeof(line), stdin) != NULL) {
		if (strncmp(line, "burst ", 6) == 0) {
			burst_k = strtol(line + 6, NULL, 10);
			atomic_store(&burst_delivered, 0);
			atomic_store(&burst_left, 16);
			atomic_fetch_add(&burst_gen, 1);
			while (atomic_load(&burst_left) > 0)
				usleep(100);
			printf("burst done %ld\n", atomic_load(&burst_delivered));
			fflush(stdout);
		} else if (strncmp(line, "quit", 4) == 0) {
			break;
		}
	}
	atomic_store(&quitting, true);
	for (int i = 0; i < 16; i++)
		pthread_join(t[i], NULL);
	printf("quit\n");
	return 0;
}

int main(int argc, char **argv)
{
	static const usdt_argtype_t ints[] = { USDT_ARG_INT8,	USDT_ARG_UINT8, USDT_ARG_INT16,
					       USDT_ARG_UINT16, USDT_ARG_INT32, USDT_ARG_UINT32 };
	static const usdt_argtype_t wide[] = { USDT_ARG_INT64,	USDT_ARG_UINT64, USDT_ARG_POINTER,
					       USDT_ARG_STRING, USDT_ARG_DOUBLE, USDT_ARG_UINT64 };
	usdt_argtype_t twelve[12];
	static const usdt_argtype_t one[] = { USDT_ARG_INT32 };
	static const usdt_argtype_t two[] = { USDT_ARG_INT32, USDT_ARG_UINT64 };
	const char *mode = argc > 1 ? argv[1] : "fire";
	long n = argc > 2 ? strtol(argv[2], NULL, 10) : 0;
	int err;

	for (int k = 0; k < 12; k++)
		twelve[k] = USDT_ARG_INT64;
	prov = usdt_provider_create("rtp", "usdtapp", NULL, &err);
	if (prov == NULL) {
		fprintf(stderr, "usdt_provider_create: %s\n", usdt_strerror(err));
		return 1;
	}
	p_ints = probe("ints", 6, ints);
	p_wide = probe("wide", 6, wide);
	p_twelve = probe("twelve", 12, twelve);
	p_noargs = probe("noargs", 0, NULL);
	p_gate = probe("gate", 1, one);
	p_spin = probe("spin", 2, two);
	p_burst = probe("burst", 2, two);
	p_forked = probe("forked", 2, two);
	if ((err = usdt_provider_enable(prov)) != 0) {
		fprintf(stderr, "usdt_provider_enable: %s\n", usdt_provider_errmsg(prov));
		return 1;
	}
	printf("path %s\n", usdt_provider_path(prov));
	fflush(stdout);

	if (strcmp(mode, "fire") == 0) {
		usdt_probe_t *list[] = { p_ints, p_wide, p_twelve, p_noargs, p_gate };

		/* "fire N twelve": only rtp:::twelve is traced */
		if (argc > 3 && strcmp(argv[3], "twelve") == 0)
			wait_enabled(&p_twelve, 1);
		else
			wait_enabled(list, 5);
		fire_all(n);
	} else if (strcmp(mode, "watch") == 0) {
		double end = now() + (double)n;
		int last = usdt_probe_is_enabled(p_gate);

		printf("enabled %d\n", last);
		fflush(stdout);
		while (now() < end) {
			int e = usdt_probe_is_enabled(p_gate);

			if ((e != 0) != (last != 0)) {
				printf("enabled %d\n", e);
				fflush(stdout);
				last = e;
			}
			usleep(2000);
		}
	} else if (strcmp(mode, "stress") == 0) {
		return stress();
	} else if (strcmp(mode, "fork") == 0) {
		usdt_probe_t *list[] = { p_forked, p_gate };
		pid_t pid;

		wait_enabled(list, 2);
		pid = fork();
		for (long i = 0; i < n; i++)
			usdt_probe_fire2(p_forked, (uint64_t)getpid(), (uint64_t)i);
		if (pid == 0)
			_exit(0);
		waitpid(pid, NULL, 0);
		printf("child %d parent %d\n", (int)pid, (int)getpid());
	} else if (strcmp(mode, "destroy") == 0) {
		usdt_provider_destroy(prov);
		printf("destroyed %d\n", usdt_probe_fire(p_gate, 1, (usdt_arg_t[]){ { .i = 1 } }));
		fflush(stdout);
		sleep(30);
	} else if (strcmp(mode, "exit") == 0) {
		return 0;
	} else if (strcmp(mode, "late") == 0) {
		usdt_probe_t *late = probe("late", 1, one), *list[2] = { late, p_gate };

		printf("path %s\n", usdt_provider_path(prov));
		fflush(stdout);
		wait_enabled(list, 2);
		for (long i = 0; i < n; i++)
			usdt_probe_fire1(late, (uint64_t)i);
	} else if (strcmp(mode, "reenable") == 0) {
		if (usdt_provider_disable(prov) != 0 || usdt_provider_path(prov) != NULL ||
		    usdt_provider_enable(prov) != 0) {
			fprintf(stderr, "reenable: %s\n", usdt_provider_errmsg(prov));
			return 1;
		}
		printf("path %s\n", usdt_provider_path(prov));
		fflush(stdout);
		wait_enabled(&p_gate, 1);
		for (long i = 0; i < n; i++)
			usdt_probe_fire1(p_gate, (uint64_t)i);
	} else if (strcmp(mode, "twins") == 0) {
		usdt_provider_t *two_prov = usdt_provider_create("rtp", "usdtapp2", NULL, &err);
		usdt_probe_t *gate2 = two_prov != NULL
					  ? usdt_probe_create(two_prov, "main", "gate", 1, one)
					  : NULL,
			     *list[2];

		if (gate2 == NULL || usdt_provider_enable(two_prov) != 0) {
			fprintf(stderr, "twins: %s\n",
				two_prov != NULL ? usdt_provider_errmsg(two_prov)
						 : usdt_strerror(err));
			return 1;
		}
		printf("path2 %s\n", usdt_provider_path(two_prov));
		fflush(stdout);
		list[0] = p_gate;
		list[1] = gate2;
		wait_enabled(list, 2);
		for (long i = 0; i < n; i++)
			usdt_probe_fire1(p_gate, 1);
		for (long i = 0; i < 2 * n; i++)
			usdt_probe_fire1(gate2, 2);
		usdt_provider_destroy(two_prov);
	} else if (strcmp(mode, "trunc") == 0) {
		usdt_arg_t a[6] = { { .i = 0x1ff },	    { .u = 0x1fe },
				    { .i = 0x18000 },	    { .u = 0x12345 },
				    { .i = 0x1ffffffffLL }, { .u = 0x100000002ULL } };

		wait_enabled(&p_ints, 1);
		usdt_probe_fire(p_ints, 6, a);
		/* the fixed-arity form passes 64 bits: the note's width decides */
		usdt_probe_fire6(p_ints, 0x1ff, 0x1fe, 0x18000, 0x12345, 0x1ffffffffULL,
				 0x100000002ULL);
	} else if (strcmp(mode, "churn") == 0) {
		return churn(n, argc > 3 && strcmp(argv[3], "traced") == 0);
	} else {
		fprintf(stderr, "unknown mode %s\n", mode);
		return 2;
	}
	printf("enabled-after %d\n", usdt_probe_is_enabled(p_gate) != 0);
	usdt_provider_destroy(prov);
	return 0;
}
