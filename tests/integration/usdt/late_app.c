/*
 * late_app -- enables a provider and fires at once, for the tests of
 * libusdt:::provider-enabled (tracers that wait for providers yet to come).
 *
 *   late_app fire N      provider "myapp", probe query-start(int): enable,
 *                        then fire N times with no pause (arg0 = i); print
 *                        "enable_ns T" (how long enable() took) on stderr
 *   late_app hooked N    print "pid P", wait (30 s at most) until a tracer
 *                        is attached to libusdt:::provider-enabled, print
 *                        "hooked", then wait for a line on stdin, and do
 *                        as "fire N"
 *   late_app time K      create, enable, disable K providers; print
 *                        "enable_ns T", the mean time of one enable()
 *   late_app sema        print "pid P", wait for a line on stdin, print
 *                        "sema V": libusdt:::provider-enabled's semaphore
 *   late_app grow N      enable provider "myapp" with probe query-start,
 *                        then add probe query-done (a rebuild) and fire it
 *                        N times at once
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "usdt.h"

/* libusdt's own probe's semaphore (hidden in libusdt, linked in statically) */
extern volatile uint16_t libusdt_provider__enabled_semaphore;

static const usdt_argtype_t iarg[] = { USDT_ARG_INT32 };

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int die(const char *what, int err)
{
	fprintf(stderr, "late_app: %s: %s\n", what, usdt_strerror(err));
	return 1;
}

static int fire(int n)
{
	usdt_provider_t *prov;
	usdt_probe_t *qs;
	uint64_t t;
	int err;

	if ((prov = usdt_provider_create("myapp", "lateapp", NULL, &err)) == NULL)
		return die("create", err);
	if ((qs = usdt_probe_create(prov, "query", "query-start", 1, iarg)) == NULL)
		return die("probe", usdt_provider_errno(prov));
	t = now_ns();
	if ((err = usdt_provider_enable(prov)) != 0)
		return die("enable", err);
	t = now_ns() - t;
	for (int i = 0; i < n; i++)
		usdt_probe_fire1(qs, (uint64_t)i);
	fprintf(stderr, "enable_ns %llu\n", (unsigned long long)t);
	usdt_provider_destroy(prov);
	return 0;
}

static int grow(int n)
{
	usdt_provider_t *prov;
	usdt_probe_t *qd;
	int err;

	if ((prov = usdt_provider_create("myapp", "lateapp", NULL, &err)) == NULL)
		return die("create", err);
	if (usdt_probe_create(prov, "query", "query-start", 1, iarg) == NULL)
		return die("probe", usdt_provider_errno(prov));
	if ((err = usdt_provider_enable(prov)) != 0)
		return die("enable", err);
	if ((qd = usdt_probe_create(prov, "query", "query-done", 1, iarg)) == NULL)
		return die("probe", usdt_provider_errno(prov));
	for (int i = 0; i < n; i++)
		usdt_probe_fire1(qd, (uint64_t)i);
	usdt_provider_destroy(prov);
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && strcmp(argv[1], "fire") == 0)
		return fire(n);
	if (argc > 1 && strcmp(argv[1], "grow") == 0)
		return grow(n);
	if (argc > 1 && strcmp(argv[1], "hooked") == 0) {
		char line[64];

		printf("pid %d\n", (int)getpid());
		for (int i = 0; i < 30000 && libusdt_provider__enabled_semaphore == 0; i++)
			usleep(1000);
		if (libusdt_provider__enabled_semaphore == 0) {
			fprintf(stderr, "late_app: no tracer on libusdt:::provider-enabled\n");
			return 1;
		}
		printf("hooked\n");
		if (fgets(line, sizeof(line), stdin) == NULL)
			return 1;
		return fire(n);
	}
	if (argc > 1 && strcmp(argv[1], "sema") == 0) {
		char line[64];

		printf("pid %d\n", (int)getpid());
		if (fgets(line, sizeof(line), stdin) == NULL)
			return 1;
		printf("sema %d\n", (int)libusdt_provider__enabled_semaphore);
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "time") == 0 && n > 0) {
		uint64_t total = 0;

		for (int i = 0; i < n; i++) {
			usdt_provider_t *prov;
			uint64_t t;
			int err;

			if ((prov = usdt_provider_create("myapp", "lateapp", NULL, &err)) == NULL)
				return die("create", err);
			if (usdt_probe_create(prov, "query", "query-start", 1, iarg) == NULL)
				return die("probe", usdt_provider_errno(prov));
			t = now_ns();
			if ((err = usdt_provider_enable(prov)) != 0)
				return die("enable", err);
			total += now_ns() - t;
			usdt_provider_destroy(prov);
		}
		printf("enable_ns %llu\n", (unsigned long long)(total / (uint64_t)n));
		return 0;
	}
	fprintf(stderr, "usage: late_app fire|hooked|grow N | time K | sema\n");
	return 2;
}
