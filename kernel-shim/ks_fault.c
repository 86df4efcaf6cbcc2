/*
 * ks_fault.c -- kernel operations that fail on demand, for the tests.
 *
 * DTRACE_KS_FAULT, read once, names operations and the call of each that
 * fails, and how: "map_create:3:ENOMEM,attach:2:EBUSY" makes the third
 * map creation fail with ENOMEM and the second attachment with EBUSY
 * (the error is optional: ENOMEM; a number is accepted too).  Operations:
 * map_create, map_update, prog_load, attach (uprobes, timers, raw
 * tracepoints), perfbuf.  Calls are counted from the first in the process.
 * The failing call does nothing else, so a test sees exactly what the
 * caller does with the error: the kernel refusing a map (no memory, or
 * RLIMIT_MEMLOCK's EPERM), the verifier refusing the Nth program, an
 * attachment refused.  Without the variable, each operation pays one
 * load of a flag.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ks.h"

static const char *const op_names[KS_OP_N] = {
	[KS_OP_MAP_CREATE] = "map_create", [KS_OP_MAP_UPDATE] = "map_update",
	[KS_OP_PROG_LOAD] = "prog_load",   [KS_OP_ATTACH] = "attach",
	[KS_OP_PERFBUF] = "perfbuf",
};

static const struct {
	const char *name;
	int err;
} errs[] = {
	{ "ENOMEM", ENOMEM }, { "EPERM", EPERM },   { "EACCES", EACCES }, { "EINVAL", EINVAL },
	{ "ENOENT", ENOENT }, { "E2BIG", E2BIG },   { "ENOSPC", ENOSPC }, { "EBUSY", EBUSY },
	{ "ESRCH", ESRCH },   { "EFAULT", EFAULT }, { "EMFILE", EMFILE },
};

static struct {
	unsigned long at; /* the call that fails, 0: none */
	int err;
	unsigned long calls;
} faults[KS_OP_N];
static bool armed;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int parse_err(const char *s)
{
	char *end;
	long n;

	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		if (strcmp(s, errs[i].name) == 0)
			return errs[i].err;
	n = strtol(s, &end, 10);
	return *end == '\0' && n > 0 && n < 4096 ? (int)n : ENOMEM;
}

static void read_env(void)
{
	const char *env = getenv("DTRACE_KS_FAULT");
	char *spec, *save = NULL;

	if (env == NULL || (spec = strdup(env)) == NULL)
		return;
	for (char *item = strtok_r(spec, ",", &save); item != NULL;
	     item = strtok_r(NULL, ",", &save)) {
		char *at = strchr(item, ':'), *err;

		if (at == NULL)
			continue;
		*at++ = '\0';
		if ((err = strchr(at, ':')) != NULL)
			*err++ = '\0';
		for (int op = 0; op < KS_OP_N; op++)
			if (strcmp(item, op_names[op]) == 0) {
				faults[op].at = strtoul(at, NULL, 10);
				faults[op].err = err != NULL ? parse_err(err) : ENOMEM;
				armed = armed || faults[op].at > 0;
			}
	}
	free(spec);
}

int ks_fault(ks_op_t op)
{
	int err = 0;

	pthread_once(&once, read_env);
	if (!armed || op < 0 || op >= KS_OP_N)
		return 0;
	pthread_mutex_lock(&lock);
	if (++faults[op].calls == faults[op].at)
		err = -faults[op].err;
	pthread_mutex_unlock(&lock);
	return err;
}
