/*
 * mini: the provider of the example interpreter, as PHP's and Python's
 * own are shaped.  `dtrace -h` turns it into mini_probes.h; the
 * interpreter fires MINI_FUNCTION_ENTRY(...) and friends.
 */
provider mini {
	/* a mini function was called / returned: its name, file, line */
	probe function__entry(const char *function, const char *file, int line);
	probe function__return(const char *function, const char *file, int line);
	/* a file is parsed: its path; done: 0 ok, 1 a syntax error */
	probe compile__start(const char *file);
	probe compile__done(const char *file, int status);
	/* a request (one run of main()): its number, the first file */
	probe request__start(int id, const char *file);
	/* done: status 0 ok, 1 a run-time error */
	probe request__done(int id, const char *file, int status);
};

#pragma D attributes Evolving/Evolving/Common provider mini provider
#pragma D attributes Evolving/Evolving/Common provider mini args
