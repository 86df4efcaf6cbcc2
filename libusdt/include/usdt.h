/*
 * usdt.h -- stable USDT providers declared at run time.
 *
 * A program (an interpreter, a service) creates a provider, adds probes
 * with typed arguments, enables it, and fires the probes.  Enabling builds
 * a small ELF image holding one tiny function per probe, standard stapsdt
 * notes and one semaphore per probe, writes it to a private runtime
 * directory and maps it; bpftrace, perf, BCC, libbpf and our dtrace find it
 * through /proc/PID/maps like any shared library.  While a tracer is
 * attached the kernel raises the probe's semaphore (uprobe ref_ctr), so
 * usdt_probe_is_enabled() of a probe no tracer is attached to costs a mask,
 * two dependent loads (the probe's semaphore address, then the semaphore)
 * and a branch, and a disabled fire the same.
 *
 * Lifecycle: create -> add probes -> enable -> fire / is_enabled ->
 * disable -> destroy.  Probes may be added after enable (the image is
 * rebuilt, and tracers must attach again); a provider can be disabled and
 * enabled again; any number of providers may live in one process,
 * including two with the same name in different modules.
 *
 * Threads: usdt_probe_fire*() and usdt_probe_is_enabled() are lock-free
 * and may be called from any thread at any time, even while another
 * thread rebuilds, disables or destroys the provider: a fire that races
 * with those does nothing.  Creation, probe addition, enable, disable and
 * destroy are serialized internally.  A forked child keeps working probes
 * (and leaves the image file to its parent).
 *
 * Errors, the convention libusdt and libdtrace (dtrace.h) share: an error
 * is a positive code, an errno value below EUSDT_BASE or an EUSDT_* code
 * from EUSDT_BASE (2000; libdtrace's EDT_* start at 1000, so no code means
 * two things), each with a fixed message (usdt_strerror(code)); the object
 * that failed keeps its last code and a message with the details
 * (usdt_provider_errno(), usdt_provider_errmsg(), as dtrace_errno() and
 * dtrace_errmsg() of a dtrace handle).  In libusdt's shape: functions
 * returning int return 0 or the code negated (-errno, -EUSDT_*), where
 * libdtrace returns -1 and leaves the code in the handle (the fire
 * functions have no handle to leave it in); usdt_strerror() takes either
 * sign.  Functions returning a pointer return NULL: usdt_probe_create()'s
 * code is usdt_provider_errno(), and every function with an int *errp
 * (usdt_provider_create(), usdt_watch_start()) stores there what an int
 * function would return: 0 on success, the code negated on failure
 * (-EINVAL, -ENOMEM, -EUSDT_BADNAME).  (libdtrace's one such function,
 * dtrace_open(), stores the positive code, as illumos' does: dtrace.h.)
 * Nothing aborts or exits on bad input.
 *
 * Linking: -lusdt (pkg-config libusdt; CMake: find_package(DTrace),
 * DTrace::usdt).  The library exports the functions declared USDT_API
 * here, and nothing else.
 *
 * Files: images live in $USDT_RUNTIME_DIR (an absolute path), else
 * $XDG_RUNTIME_DIR/usdt, else /tmp/usdt-UID (mode 0700, created with
 * O_EXCL), and are removed on disable, destroy and exit.  Each is locked
 * (flock, shared) while a process maps it; the first provider a process
 * creates removes the files that no process holds and whose writer died,
 * or that the same process left behind before an exec.  The directory is
 * kept from the first enable that finds a usable one; a refused one
 * (EUSDT_RUNDIR) is looked for again at the next enable.
 */
#ifndef USDT_H
#define USDT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(USDT_BUILDING_LIBRARY)
#define USDT_API __attribute__((visibility("default")))
#else
#define USDT_API
#endif

#define USDT_MAXARGS 12

typedef enum usdt_argtype {
	USDT_ARG_INT8 = 1,
	USDT_ARG_UINT8,
	USDT_ARG_INT16,
	USDT_ARG_UINT16,
	USDT_ARG_INT32,
	USDT_ARG_UINT32,
	USDT_ARG_INT64,
	USDT_ARG_UINT64,
	USDT_ARG_POINTER, /* 8 bytes, unsigned */
	USDT_ARG_STRING,  /* a pointer to a NUL-terminated string: consumers copy it */
	USDT_ARG_DOUBLE,  /* passed as its IEEE-754 bit pattern (8 bytes, unsigned):
			     a consumer reinterprets the 64 bits as a double */
} usdt_argtype_t;

/* A value for usdt_probe_fire(); the member used is the probe's argument type. */
typedef union usdt_arg {
	int64_t i;     /* INT8..INT64 (truncated to the declared width) */
	uint64_t u;    /* UINT8..UINT64 */
	const void *p; /* POINTER */
	const char *s; /* STRING */
	double d;      /* DOUBLE */
} usdt_arg_t;

#define EUSDT_BASE 2000
enum {
	EUSDT_BADNAME = EUSDT_BASE, /* invalid provider, module, function or probe name */
	EUSDT_TOOMANYARGS,	    /* more than USDT_MAXARGS arguments */
	EUSDT_BADTYPE,		    /* unknown argument type */
	EUSDT_DUPLICATE,	    /* the provider already has a probe of that name */
	EUSDT_ENABLED,		    /* the provider is already enabled */
	EUSDT_NOTENABLED,	    /* the provider is not enabled */
	EUSDT_DESTROYED,	    /* the probe's provider was destroyed */
	EUSDT_ARGCOUNT,		    /* fired with a different number of arguments */
	EUSDT_ELF,		    /* building the ELF image failed */
	EUSDT_RUNDIR,		    /* no usable private runtime directory */
	EUSDT_BADOPTS,		    /* unknown or malformed options */
	EUSDT_HIGHADDR,		    /* the probe's memory is at or above 2^48 (5-level paging) */
	EUSDT_MAX
};

typedef struct usdt_provider usdt_provider_t;
typedef struct usdt_probe usdt_probe_t;

/* Options for usdt_provider_create(); NULL means defaults. */
struct usdt_provider_opts {
	size_t sz;	/* sizeof(struct usdt_provider_opts) */
	unsigned flags; /* USDT_SITE_* */
};
/*
 * Probe site form.  Default: each probe function starts with a 5-byte nop,
 * which Linux 6.18 can turn into a call instead of a trap (safe here: the
 * probe function has no red zone in use).  USDT_SITE_NOP1: a 1-byte nop,
 * the <sys/sdt.h> form, always a trap.
 */
#define USDT_SITE_NOP1 0x1

/*
 * Create a provider.  name: [A-Za-z_][A-Za-z0-9_]*, at most 63 bytes.
 * module: the module field of its probes (NULL: the program's name); it
 * becomes part of the image file name.  Strings are copied.  Returns NULL
 * and stores the code negated in *errp (if errp) on failure, 0 on success.
 */
USDT_API usdt_provider_t *usdt_provider_create(const char *name, const char *module,
					       const struct usdt_provider_opts *opts, int *errp);

/*
 * Disable (if enabled) and free the provider.  Its probe handles stay
 * safe to use for the life of the process: firing them afterwards does
 * nothing and returns -EUSDT_DESTROYED, is_enabled gives 0.  (A handle
 * carries a generation: a later probe may reuse a destroyed probe's memory
 * after 2 s, and an old handle then no longer matches it; the generation
 * of one probe's memory wraps after 65,536 reuses.)  Accepts NULL.
 */
USDT_API void usdt_provider_destroy(usdt_provider_t *prov);

/*
 * Add a probe.  function and name as provider names; a "-" in name is
 * written "__" in the note, which consumers show as "-" ("query-start" and
 * "query__start" name the same probe); function NULL: the note's name.
 * argc 0..USDT_MAXARGS (else
 * EUSDT_TOOMANYARGS); types: argc entries, copied (NULL only with argc 0,
 * else EUSDT_BADTYPE).
 * Returns the probe, owned by the provider, or NULL (see
 * usdt_provider_errno).  On an enabled provider the image is rebuilt:
 * tracers attached to its old image must attach again.
 */
USDT_API usdt_probe_t *usdt_probe_create(usdt_provider_t *prov, const char *function,
					 const char *name, int argc, const usdt_argtype_t *types);

/*
 * Build, write and map the image: the probes become visible to tracers.
 * When a tracer waits for new providers (attached to libusdt:::provider-
 * enabled: dtrace -Z with this process as its target), returns only once it
 * has attached the probes that match, or after 1 s at most; otherwise at
 * once (docs/libusdt.md).  usdt_probe_create() on an enabled provider
 * waits likewise.
 */
USDT_API int usdt_provider_enable(usdt_provider_t *prov);
/* Unmap and remove the image; probes stay and fire into nothing. */
USDT_API int usdt_provider_disable(usdt_provider_t *prov);

/* Last error of the provider: code, and a message (borrowed until the next call). */
USDT_API int usdt_provider_errno(const usdt_provider_t *prov);
USDT_API const char *usdt_provider_errmsg(const usdt_provider_t *prov);
/* Path of the enabled image, for tracers (borrowed until disable/destroy); NULL if disabled. */
USDT_API const char *usdt_provider_path(const usdt_provider_t *prov);
/* The message of a code (fixed text). */
USDT_API const char *usdt_strerror(int err);

/*
 * Is a tracer attached to this probe?  Non-zero or 0: a flag, not a count
 * of tracers (the kernel raises the semaphore once per site holding a
 * breakpoint, however many tracers share it: docs/static-probes.md).  Not
 * traced: two dependent loads (the semaphore's address, the semaphore);
 * traced: two more (the handle's generation, the provider's liveness).
 * Lock-free.
 */
USDT_API int usdt_probe_is_enabled(const usdt_probe_t *probe);

/*
 * The probe's semaphore word, for a language runtime that reads it without
 * calling into C (a JIT's typed-array view, a VM's own load): non-zero
 * while a tracer is attached.  NULL while the provider is not enabled or
 * once it is destroyed.  The address stays readable for the life of the
 * process (libusdt never unmaps an image's pages: a retired image becomes
 * a zeroed copy, which a later image may reuse), but it is this probe's
 * semaphore only until the provider's next enable, disable, destroy or
 * usdt_probe_create(): ask again after each.  A stale address reads 0 or
 * another probe's semaphore, so a caller that finds it non-zero must still
 * fire through usdt_probe_fire*(), which checks the probe itself.  Never
 * write to it.  Lock-free.
 */
USDT_API const volatile uint16_t *usdt_probe_semaphore(const usdt_probe_t *probe);

/*
 * Fire with an argument array: argc must equal the probe's argument
 * count; each value is read through the member its type names.  Returns 0,
 * -EUSDT_ARGCOUNT, -EUSDT_DESTROYED.  Does nothing (and returns 0) when no
 * tracer is attached.  Lock-free.
 */
USDT_API int usdt_probe_fire(usdt_probe_t *probe, int argc, const usdt_arg_t *args);

/*
 * Fixed-arity fast paths for probes of up to 6 arguments.  Each value is
 * passed as 64 bits; the probe's declared type says how many low-order
 * bytes consumers read and whether they are signed, so pass integers and
 * pointers as they are (cast to uint64_t) and doubles as
 * usdt_double_bits(d).  The arity is not checked against the declaration.
 */
USDT_API void usdt_probe_fire0(usdt_probe_t *probe);
USDT_API void usdt_probe_fire1(usdt_probe_t *probe, uint64_t a0);
USDT_API void usdt_probe_fire2(usdt_probe_t *probe, uint64_t a0, uint64_t a1);
USDT_API void usdt_probe_fire3(usdt_probe_t *probe, uint64_t a0, uint64_t a1, uint64_t a2);
USDT_API void usdt_probe_fire4(usdt_probe_t *probe, uint64_t a0, uint64_t a1, uint64_t a2,
			       uint64_t a3);
USDT_API void usdt_probe_fire5(usdt_probe_t *probe, uint64_t a0, uint64_t a1, uint64_t a2,
			       uint64_t a3, uint64_t a4);
USDT_API void usdt_probe_fire6(usdt_probe_t *probe, uint64_t a0, uint64_t a1, uint64_t a2,
			       uint64_t a3, uint64_t a4, uint64_t a5);

/*
 * A watcher for a runtime's own provider: a thread (all signals blocked)
 * that looks at the probes' semaphores every interval_ns and calls
 * fn(on, arg) at each look while any probe is enabled (on true), and once
 * when none is any more (on false): the runtime installs its hook then,
 * and removes it.  fn runs on the watcher thread, never after stop
 * returns.  probes (n of them) must outlive the watcher.  On failure NULL,
 * and *errp (if errp) the code negated: -EINVAL (bad arguments), -ENOMEM,
 * or pthread_create()'s error negated (-EAGAIN); 0 on success.
 */
typedef struct usdt_watch usdt_watch_t;
typedef void usdt_watch_fn(bool on, void *arg);
USDT_API usdt_watch_t *usdt_watch_start(usdt_probe_t *const *probes, int n, long interval_ns,
					usdt_watch_fn *fn, void *arg, int *errp);
/*
 * Stop and join the watcher, then free it.  In a child forked after start
 * there is no thread: this only frees.  Call it where fn can finish (a
 * runtime whose fn takes a lock must not hold it here).
 */
USDT_API void usdt_watch_stop(usdt_watch_t *w);

static inline uint64_t usdt_double_bits(double d)
{
	uint64_t u;

	__builtin_memcpy(&u, &d, sizeof(u));
	return u;
}

#ifdef __cplusplus
}
#endif

#endif /* USDT_H */
