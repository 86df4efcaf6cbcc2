/*
 * us_watch.c -- a thread that watches probes' semaphores for a runtime
 * provider (the bindings' function-entry/-return): it calls back while a
 * tracer is there, so the runtime installs its hook, and once when the
 * last one leaves, so it removes it; an untraced program pays nothing but
 * a load per probe and interval.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "us_impl.h"

struct usdt_watch {
	usdt_probe_t *const *w_probes;
	int w_n;
	long w_interval_ns;
	usdt_watch_fn *w_fn;
	void *w_arg;
	pthread_t w_thread;
	pthread_mutex_t w_mu;
	pthread_cond_t w_cv; /* timed waits on CLOCK_MONOTONIC */
	bool w_stop;
	pid_t w_pid; /* the process whose thread it is: a forked child has none */
};

static bool any_enabled(const usdt_watch_t *w)
{
	for (int i = 0; i < w->w_n; i++)
		if (usdt_probe_is_enabled(w->w_probes[i]) > 0)
			return true;
	return false;
}

static void *watch(void *arg)
{
	usdt_watch_t *w = arg;
	bool was = false;

	pthread_mutex_lock(&w->w_mu);
	while (!w->w_stop) {
		struct timespec t;
		bool on = any_enabled(w);

		if (on || was) { /* unlocked: the callback may wait for the runtime's lock */
			pthread_mutex_unlock(&w->w_mu);
			w->w_fn(on, w->w_arg);
			pthread_mutex_lock(&w->w_mu);
		}
		was = on;
		clock_gettime(CLOCK_MONOTONIC, &t);
		t.tv_nsec += w->w_interval_ns % 1000000000L;
		t.tv_sec += w->w_interval_ns / 1000000000L + t.tv_nsec / 1000000000L;
		t.tv_nsec %= 1000000000L;
		while (!w->w_stop && pthread_cond_timedwait(&w->w_cv, &w->w_mu, &t) != ETIMEDOUT)
			;
	}
	pthread_mutex_unlock(&w->w_mu);
	return NULL;
}

usdt_watch_t *usdt_watch_start(usdt_probe_t *const *probes, int n, long interval_ns,
			       usdt_watch_fn *fn, void *arg, int *errp)
{
	usdt_watch_t *w;
	pthread_condattr_t ca;
	sigset_t all, old;
	int e;

	if (probes == NULL || n <= 0 || interval_ns <= 0 || fn == NULL) {
		if (errp != NULL)
			*errp = -EINVAL;
		return NULL;
	}
	if ((w = calloc(1, sizeof(*w))) == NULL) {
		if (errp != NULL)
			*errp = -ENOMEM;
		return NULL;
	}
	*w = (usdt_watch_t){ .w_probes = probes,
			     .w_n = n,
			     .w_interval_ns = interval_ns,
			     .w_fn = fn,
			     .w_arg = arg,
			     .w_pid = getpid() };
	pthread_mutex_init(&w->w_mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->w_cv, &ca);
	pthread_condattr_destroy(&ca);
	/* signals are for the program's threads: the watcher blocks them all */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&w->w_thread, NULL, watch, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e != 0) {
		pthread_cond_destroy(&w->w_cv);
		pthread_mutex_destroy(&w->w_mu);
		free(w);
		if (errp != NULL)
			*errp = -e;
		return NULL;
	}
	if (errp != NULL)
		*errp = 0;
	return w;
}

void usdt_watch_stop(usdt_watch_t *w)
{
	if (w == NULL)
		return;
	if (w->w_pid == getpid()) {
		pthread_mutex_lock(&w->w_mu);
		w->w_stop = true;
		pthread_cond_signal(&w->w_cv);
		pthread_mutex_unlock(&w->w_mu);
		pthread_join(w->w_thread, NULL);
		pthread_cond_destroy(&w->w_cv);
		pthread_mutex_destroy(&w->w_mu);
	} /* else a forked child: no thread, and the lock may have been copied held */
	free(w);
}
