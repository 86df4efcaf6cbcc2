/*
 * bench: the provider of the static-probe benchmark.  Nothing ever traces
 * it on purpose; the benchmark measures what its sites cost while disabled.
 * `dtrace -h` turns it into bench_probes.h at build time.
 */
provider bench {
	/* no arguments: the site alone */
	probe zero();
	/* two values the loop already holds in registers: no argument work */
	probe two(uint64_t i, uint64_t sum);
	/* six, four of which the loop computes only for the probe */
	probe six(uint64_t i, uint64_t sum, int low, int high, const char *ring,
	    const char *slot);
};

#pragma D attributes Evolving/Evolving/Common provider bench provider
#pragma D attributes Evolving/Evolving/Common provider bench args
