/*
 * jobs -- a small job runner with a stable provider (see jobs.d).
 *
 *   jobs [N]   run N jobs (default 20) on two worker threads
 *
 * Probes cost a few nops when nobody traces; queue__stats shows the
 * is-enabled form, which skips preparing arguments nobody will read.
 *
 * Job names live in writable memory the program has touched: a BPF
 * program cannot fault in a page, so a string in .rodata that the process
 * never read (still on disk) would come out empty in any BPF tracer.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "jobs_probes.h"

#define MAXJOBS 10000

static const char *const kinds[] = { "resize", "encode", "upload", "index" };

static struct job {
	uint64_t id;
	char name[16];
	unsigned work_us;
} queue[MAXJOBS];
static int nqueued, next, ndone;
static uint64_t total_us;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static void *worker(void *arg)
{
	int self = (int)(intptr_t)arg;

	for (;;) {
		struct job *j;
		uint64_t t0, us;

		pthread_mutex_lock(&lock);
		if (next == nqueued) {
			pthread_mutex_unlock(&lock);
			return NULL;
		}
		j = &queue[next++];
		pthread_mutex_unlock(&lock);

		JOBS_JOB_START(j->id, j->name, self);
		t0 = now_us();
		usleep(j->work_us);
		us = now_us() - t0;
		JOBS_JOB_DONE(j->id, j->name, j->id % 7 == 0 ? 1 : 0, us);

		pthread_mutex_lock(&lock);
		ndone++;
		total_us += us;
		if (JOBS_QUEUE_STATS_ENABLED())
			JOBS_QUEUE_STATS(nqueued - ndone, ndone, total_us);
		pthread_mutex_unlock(&lock);
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20;
	pthread_t t[2];

	if (n < 0 || n > MAXJOBS) {
		fprintf(stderr, "usage: jobs [N]  (0 <= N <= %d)\n", MAXJOBS);
		return 2;
	}
	for (int i = 0; i < n; i++) {
		queue[i].id = (uint64_t)i + 1;
		snprintf(queue[i].name, sizeof(queue[i].name), "%s-%d", kinds[i % 4], i + 1);
		queue[i].work_us = 200 + (unsigned)(i % 5) * 300;
		JOBS_JOB_QUEUED(queue[i].id, queue[i].name);
	}
	nqueued = n;
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("jobs: ran %d jobs in %.1f ms of work\n", ndone, (double)total_us / 1000);
	return 0;
}
