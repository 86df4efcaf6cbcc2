/*
 * jobs: the provider of the example job runner.  `dtrace -h` turns it into
 * jobs_probes.h; the program fires JOBS_JOB_START(...) and friends.
 */
provider jobs {
	/* a job was queued: id, name */
	probe job__queued(uint64_t id, const char *name);
	/* a worker took it */
	probe job__start(uint64_t id, const char *name, int worker);
	/* it finished: id, name, status (0 = ok), microseconds spent */
	probe job__done(uint64_t id, const char *name, int status, uint64_t usecs);
	/* fired only when something is tracing it: a summary that costs work */
	probe queue__stats(int queued, int done, uint64_t total_usecs);
};

#pragma D attributes Evolving/Evolving/Common provider jobs provider
#pragma D attributes Evolving/Evolving/Common provider jobs args
