/*
 * scheds -- the sched goldens' target.  Each mode runs its work in a
 * second thread (the worker), so that a script tells it from the main
 * thread with tid != pid:
 *
 *   scheds sleep N MS    the worker sleeps N times MS milliseconds
 *   scheds wake N        the worker reads a pipe N times; the main thread
 *                        writes it N times, 20 ms apart (N wakeups of the
 *                        worker by the main thread)
 *   scheds spin MS       two workers spin MS milliseconds on CPU 0
 *   scheds yield N       the worker calls sched_yield N times
 *   scheds pi            the main thread holds a priority-inheritance
 *                        mutex that a SCHED_FIFO (priority 10) worker then
 *                        waits for: the main thread is boosted, then
 *                        restored when it unlocks
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int n, ms, fds[2];
static pthread_mutex_t pi;

static void msleep(int t)
{
	struct timespec ts = { t / 1000, (long)(t % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0)
		;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *sleeper(void *a)
{
	(void)a;
	for (int i = 0; i < n; i++)
		msleep(ms);
	return NULL;
}

static void *reader(void *a)
{
	char c;

	(void)a;
	for (int i = 0; i < n; i++)
		if (read(fds[0], &c, 1) != 1)
			exit(1);
	return NULL;
}

static void *spinner(void *a)
{
	cpu_set_t set;
	double end;
	volatile unsigned long x = 0;

	(void)a;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	end = now() + ms / 1000.0;
	while (now() < end)
		x++;
	return NULL;
}

static void *yielder(void *a)
{
	(void)a;
	for (int i = 0; i < n; i++)
		sched_yield();
	return NULL;
}

static void *waiter(void *a)
{
	(void)a;
	pthread_mutex_lock(&pi);
	pthread_mutex_unlock(&pi);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t, t2;
	pthread_attr_t attr;
	const char *mode = argc > 1 ? argv[1] : "";

	n = argc > 2 ? atoi(argv[2]) : 1;
	ms = argc > 3 ? atoi(argv[3]) : n;
	if (strcmp(mode, "sleep") == 0) {
		pthread_create(&t, NULL, sleeper, NULL);
		pthread_join(t, NULL);
	} else if (strcmp(mode, "wake") == 0) {
		if (pipe(fds) != 0)
			return 1;
		pthread_create(&t, NULL, reader, NULL);
		for (int i = 0; i < n; i++) {
			msleep(20);
			if (write(fds[1], "x", 1) != 1)
				return 1;
		}
		pthread_join(t, NULL);
	} else if (strcmp(mode, "spin") == 0) {
		ms = n;
		pthread_create(&t, NULL, spinner, NULL);
		pthread_create(&t2, NULL, spinner, NULL);
		pthread_join(t, NULL);
		pthread_join(t2, NULL);
	} else if (strcmp(mode, "yield") == 0) {
		pthread_create(&t, NULL, yielder, NULL);
		pthread_join(t, NULL);
	} else if (strcmp(mode, "pi") == 0) {
		pthread_mutexattr_t ma;
		struct sched_param sp = { .sched_priority = 10 };

		pthread_mutexattr_init(&ma);
		pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
		pthread_mutex_init(&pi, &ma);
		pthread_attr_init(&attr);
		pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
		pthread_attr_setschedparam(&attr, &sp);
		pthread_mutex_lock(&pi);
		if (pthread_create(&t, &attr, waiter, NULL) != 0)
			return 1;
		msleep(100); /* the worker waits on the mutex: the main thread is boosted */
		pthread_mutex_unlock(&pi);
		pthread_join(t, NULL);
	} else {
		fprintf(stderr, "usage: scheds sleep N MS | wake N | spin MS | yield N | pi\n");
		return 2;
	}
	return 0;
}
