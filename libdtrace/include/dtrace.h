/*
 * dtrace.h -- the public interface of libdtrace.
 *
 * A handle-based API in the shape of illumos libdtrace: open a handle, set
 * options, compile D programs, read back errors, close.  Everything a
 * consumer can do goes through this header; the dtrace command uses nothing
 * else from the library.
 *
 * Threads: a handle is not thread-safe; use one handle per thread or
 * serialise calls on it.  Distinct handles are independent.
 *
 * Errors, the convention libdtrace and libusdt (usdt.h) share: an error is
 * a positive code, an errno value below EDT_BASE or an EDT_* code from
 * EDT_BASE (1000; libusdt's EUSDT_* start at 2000, so no code means two
 * things), each with a fixed message (dtrace_errmsg(NULL, code)); the
 * object that failed keeps its last code and a message with the details.
 * In libdtrace's shape (illumos'): functions that return a pointer return
 * NULL on failure, functions that return int return 0 or -1; either way
 * the handle records the code (dtrace_errno) and the message
 * (dtrace_errmsg).  dtrace_open(), which has no handle yet, stores the
 * code itself in *errp (positive, as illumos' does), and
 * dtrace_errmsg() takes it as it is.  libusdt's shape differs only in the
 * sign: its int functions return the code negated, and its functions with
 * an *errp store what those would return (usdt.h).  Nothing in the library
 * exits or aborts on bad input.
 *
 * Linking: -ldtrace (pkg-config libdtrace; CMake: find_package(DTrace),
 * DTrace::dtrace), which also holds dtrace -h and -G (dtrace_gen.h).  The
 * library exports the functions declared DTRACE_API here and in
 * dtrace_gen.h, and nothing else.
 */
#ifndef DTRACE_H
#define DTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(DTRACE_BUILDING_LIBRARY)
#define DTRACE_API __attribute__((visibility("default")))
#else
#define DTRACE_API
#endif

/* Interface version passed to dtrace_open(). */
#define DTRACE_VERSION 3

typedef struct dtrace_hdl dtrace_hdl_t;
typedef struct dtrace_prog dtrace_prog_t;

/*
 * Error codes.  Values below EDT_BASE are errno values; ours start there.
 * dtrace_errmsg() gives the message of each.
 */
#define EDT_BASE 1000
enum {
	EDT_VERSION = EDT_BASE, /* client asked for a newer interface */
	EDT_COMPILER,		/* error in D program compilation */
	EDT_NOMEM,		/* memory allocation failure */
	EDT_BADOPTNAME,		/* unknown option name */
	EDT_BADOPTVAL,		/* bad option value */
	EDT_CPP,		/* the C preprocessor failed */
	EDT_NOPROV,		/* program declares no provider */
	EDT_ELF,		/* bad or unreadable ELF file */
	EDT_OBJIO,		/* cannot write an object or header file */
	EDT_BADARG,		/* invalid argument to a library function */
	EDT_NOPROBE,		/* no probe matches the description */
	EDT_BADPSPEC,		/* malformed probe description */
	EDT_NOPRIV,		/* not privileged to trace (no CAP_BPF/CAP_PERFMON) */
	EDT_ENABLING,		/* the kernel refused a program or an attachment */
	EDT_NOTRACE,		/* no program has been enabled, or tracing was stopped */
	EDT_PROC,		/* cannot create or grab the target process */
	EDT_DESTRUCTIVE,	/* destructive actions without -w (destructive option) */
	EDT_ACTIVE,		/* an option setopt() cannot change while tracing */
	EDT_WRITEUSER,		/* copyout()/copyoutstr(): no bpf_probe_write_user (lockdown) */
	EDT_PROVUNAVAIL, /* a provider named cannot work on this system (its message says why) */
	EDT_UNSTABLE,	 /* probe information asked of several probes at once */
	EDT_DIRABORT,	 /* a consumer callback returned DTRACE_CONSUME_ABORT */
	EDT_CALLBACK,	 /* a consumer callback returned DTRACE_CONSUME_ERROR */
	EDT_MAX
};

/* Compile flags (a subset of illumos DTRACE_C_*; same values). */
#define DTRACE_C_DIFV  0x0001 /* print each clause's compiled code to stderr (dtrace -S) */
#define DTRACE_C_CPP   0x0008 /* run the C preprocessor first */
#define DTRACE_C_ZDEFS 0x0010 /* permit probe definitions that match nothing */

/*
 * Open a handle.  version must be DTRACE_VERSION (or older); flags is 0.
 * On failure returns NULL and stores an error code in *errp if errp != NULL.
 * The handle is released with dtrace_close(), which accepts NULL.
 */
DTRACE_API dtrace_hdl_t *dtrace_open(int version, int flags, int *errp);
DTRACE_API void dtrace_close(dtrace_hdl_t *dtp);

/*
 * Set an option.  Compiler options understood today:
 *   "cpppath" = path of the preprocessor (default: cpp)
 *   "incdir"  = add a -I directory for the preprocessor
 *   "define"  = add a -D NAME[=VALUE] for the preprocessor
 *   "undef"   = add a -U NAME for the preprocessor
 *   "errtags" = show [D_TAG] in compiler messages (value ignored)
 * and the consumer options of dtrace(1): bufsize, switchrate, strsize,
 * quiet, dynvarsize, aggsize, aggrate, aggsort*, nspec, specsize,
 * stackframes, ... (sizes take k/m/g, times ns/us/ms/s or hz).
 * val is copied.  Returns 0, or -1 with EDT_BADOPTNAME / EDT_BADOPTVAL.
 */
DTRACE_API int dtrace_setopt(dtrace_hdl_t *dtp, const char *opt, const char *val);

/*
 * The value of consumer option opt (as illumos dtrace_getopt): a size in
 * bytes, a time in nanoseconds, 1 for a switch that is set, or
 * DTRACEOPT_UNSET when the option was not set (by dtrace_setopt or a
 * program's #pragma D option).  Returns 0, or -1 with EDT_BADOPTNAME.
 */
#define DTRACEOPT_UNSET ((int64_t)-2)
DTRACE_API int dtrace_getopt(dtrace_hdl_t *dtp, const char *opt, int64_t *val);

/*
 * Compile a D program.  The text comes from a string, an open stream or a
 * file path; fname names it in diagnostics (may be NULL).  argc/argv are the
 * macro arguments $0..$n (may be 0/NULL).  The program belongs to the
 * handle and is freed by dtrace_program_destroy() or dtrace_close().
 * On a compile error returns NULL with EDT_COMPILER; dtrace_errmsg() gives
 * "line N: message" and dtrace_lastdiag() the full location.
 */
DTRACE_API dtrace_prog_t *dtrace_program_strcompile(dtrace_hdl_t *dtp, const char *s,
						    const char *fname, unsigned cflags, int argc,
						    char *const argv[]);
DTRACE_API dtrace_prog_t *dtrace_program_fcompile(dtrace_hdl_t *dtp, FILE *fp, const char *fname,
						  unsigned cflags, int argc, char *const argv[]);
DTRACE_API void dtrace_program_destroy(dtrace_hdl_t *dtp, dtrace_prog_t *pgp);

/* Location of the last compiler diagnostic.  Borrowed until the next compile. */
typedef struct dtrace_diag {
	const char *dtdg_file;	  /* file name as given, or "<stdin>" */
	unsigned dtdg_line;	  /* 1-based */
	unsigned dtdg_column;	  /* 1-based, in bytes */
	const char *dtdg_tag;	  /* stable tag, e.g. "D_SYNTAX" */
	const char *dtdg_message; /* message without location or tag */
	const char *dtdg_source;  /* the offending source line, no newline; may be "" */
} dtrace_diag_t;

DTRACE_API const dtrace_diag_t *dtrace_lastdiag(dtrace_hdl_t *dtp);

/* Last error code of the handle, and the message for a code. */
DTRACE_API int dtrace_errno(dtrace_hdl_t *dtp);
/*
 * For EDT_COMPILER and other errors with detail, the handle's message is
 * returned; otherwise the fixed text of err.  Borrowed until the next call
 * on the handle.  dtp may be NULL for the fixed text.
 */
DTRACE_API const char *dtrace_errmsg(dtrace_hdl_t *dtp, int err);

/*
 * Probes.  A description names provider:module:function:name; each field
 * is a glob pattern (*, ?, [...]) and an empty field matches anything.
 * Field sizes are those of illumos.
 */
#define DTRACE_PROVNAMELEN 64
#define DTRACE_MODNAMELEN  64
#define DTRACE_FUNCNAMELEN 192
#define DTRACE_NAMELEN	   64

typedef uint32_t dtrace_id_t;

typedef struct dtrace_probedesc {
	dtrace_id_t dtpd_id; /* 0 in a description to match */
	char dtpd_provider[DTRACE_PROVNAMELEN];
	char dtpd_mod[DTRACE_MODNAMELEN];
	char dtpd_func[DTRACE_FUNCNAMELEN];
	char dtpd_name[DTRACE_NAMELEN];
} dtrace_probedesc_t;

/*
 * Parse "p:m:f:n" into a description.  Fewer fields fill from the right,
 * as dtrace -n does ("BEGIN" is the name, "f:n" function and name);
 * dtrace -P/-m/-f give a single field with spec DTRACE_PROBESPEC_PROVIDER,
 * _MOD, _FUNC, _NAME.  Returns 0, or -1 with EDT_BADPSPEC.
 */
enum {
	DTRACE_PROBESPEC_NONE = -1,
	DTRACE_PROBESPEC_PROVIDER = 0,
	DTRACE_PROBESPEC_MOD,
	DTRACE_PROBESPEC_FUNC,
	DTRACE_PROBESPEC_NAME
};
DTRACE_API int dtrace_str2desc(dtrace_hdl_t *dtp, int spec, const char *s, dtrace_probedesc_t *pdp);

/*
 * Call func for every probe that matches pdp (NULL: every probe), in ID
 * order: the dtrace provider (BEGIN, END, ERROR), profile and tick, then
 * the USDT probes of every running process that this process may read,
 * as provider name + PID (python1234), module = the file's base name.
 * Probes made on demand (tick-10ms, a file as a module, fbt's kernel
 * functions) are added when a description names them, after those: fbt's
 * only for a description whose provider field matches fbt.
 * The table is read on the first call and kept for the handle's life, so
 * IDs stay the same from call to call.
 * A non-zero return from func stops the walk and is returned.  Returns 0,
 * or -1 with EDT_NOPROBE when nothing matched, or EDT_PROVUNAVAIL when
 * the description names a provider that cannot work on this system (the
 * message says why: "fbt: kernel functions cannot be traced: ...").
 */
typedef int dtrace_probe_f(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp, void *arg);
DTRACE_API int dtrace_probe_iter(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp,
				 dtrace_probe_f *func, void *arg);

/*
 * Stability attributes (the Dynamic Tracing Guide, "Stability"): a name's
 * and a datum's stability, DTRACE_STABILITY_*, and the architectures it
 * depends on, DTRACE_CLASS_*, with illumos' values.
 */
enum {
	DTRACE_STABILITY_INTERNAL = 0,
	DTRACE_STABILITY_PRIVATE,
	DTRACE_STABILITY_OBSOLETE,
	DTRACE_STABILITY_EXTERNAL,
	DTRACE_STABILITY_UNSTABLE,
	DTRACE_STABILITY_EVOLVING,
	DTRACE_STABILITY_STABLE,
	DTRACE_STABILITY_STANDARD
};
enum {
	DTRACE_CLASS_UNKNOWN = 0,
	DTRACE_CLASS_CPU,
	DTRACE_CLASS_PLATFORM,
	DTRACE_CLASS_GROUP,
	DTRACE_CLASS_ISA,
	DTRACE_CLASS_COMMON
};

typedef struct dtrace_attribute {
	uint8_t dtat_name;  /* DTRACE_STABILITY_* of the names */
	uint8_t dtat_data;  /* DTRACE_STABILITY_* of the data */
	uint8_t dtat_class; /* DTRACE_CLASS_* */
} dtrace_attribute_t;

/* "Stable", "Common"...; "Unknown" for a value out of range.  Static strings. */
DTRACE_API const char *dtrace_stability_name(int stability);
DTRACE_API const char *dtrace_class_name(int dclass);

#define DTRACE_ARGTYPELEN 128
#define DTRACE_MAXARGS	  10 /* the arguments dtrace_probeinfo_t describes */

/*
 * What dtrace -l -v prints of a probe: the attributes of its description
 * (the least stable of the components pdp names: an empty or glob
 * component does not count, as illumos' dt_probe_info() computes them),
 * those of its arguments, and the type of each args[i] as D spells it
 * (the translated type where a translator makes one).  dtp_argc is 0 for
 * a probe whose arguments have no types (argN only).
 */
typedef struct dtrace_probeinfo {
	dtrace_attribute_t dtp_attr;
	dtrace_attribute_t dtp_arga;
	int dtp_argc;
	char dtp_argv[DTRACE_MAXARGS][DTRACE_ARGTYPELEN];
} dtrace_probeinfo_t;

/*
 * The information of the one probe pdp names (a probe from
 * dtrace_probe_iter(), or a description that matches exactly one): 0, or
 * -1 with EDT_NOPROBE (nothing matches) or EDT_UNSTABLE (several do, and
 * their provider does not promise them the same arguments: illumos' rule,
 * arguments Evolving or better and every Evolving component named
 * without a glob).
 */
DTRACE_API int dtrace_probe_info(dtrace_hdl_t *dtp, const dtrace_probedesc_t *pdp,
				 dtrace_probeinfo_t *pip);

/*
 * Tracing, in the order of illumos libdtrace:
 *
 *   dtrace_proc_create() / dtrace_proc_grab()   optional target ($target)
 *   dtrace_program_*compile(), then dtrace_program_exec() for each program
 *   dtrace_go()                                  load, attach, fire BEGIN
 *   loop: dtrace_sleep(); dtrace_work()          drain buffers, print records
 *   dtrace_stop()                                fire END (dtrace_work drains it)
 *
 * dtrace_program_exec() matches the program's probe descriptions against
 * the probe table and enables a (clause, probe) pair for each match; info
 * (may be NULL) receives the counts.  A description matching nothing is an
 * error unless the "zdefs" option is set.
 */
typedef struct dtrace_proginfo {
	unsigned dpi_descs;   /* probe descriptions in the program */
	unsigned dpi_matches; /* probes they matched */
} dtrace_proginfo_t;

DTRACE_API int dtrace_program_exec(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, dtrace_proginfo_t *info);
/*
 * Generate, load and attach every enabled program and fire BEGIN.  Needs
 * CAP_BPF and CAP_PERFMON (or root): EDT_NOPRIV otherwise.  A program the
 * kernel's verifier refuses gives EDT_ENABLING with the verifier's words.
 * A failure leaves nothing behind: no BPF map, program or link (so no
 * semaphore stays raised), the target released as dtrace_close() would,
 * and the enablings gone (dtrace_program_exec() again to retry).
 */
DTRACE_API int dtrace_go(dtrace_hdl_t *dtp);
/*
 * Print every aggregation that printa() has not printed, as dtrace(1)
 * does at exit: sorted by value (or as the aggsort options say).  A write
 * that fails gives -1 with its errno (ENOSPC...), fp's error flag set.
 */
DTRACE_API int dtrace_aggregate_print(dtrace_hdl_t *dtp, FILE *fp);
/*
 * Print every aggregation's current entries, printed by printa() or not,
 * and mark nothing: for consumers that keep their own view (the bindings
 * read it in JSON mode).  Valid while tracing and after.
 */
DTRACE_API int dtrace_aggregate_write(dtrace_hdl_t *dtp, FILE *fp);

/* Fire END (once); the records it makes are drained by the next dtrace_work(). */
DTRACE_API int dtrace_stop(dtrace_hdl_t *dtp);
/* Wait until records arrive, the target exits, or switchrate passes. */
DTRACE_API void dtrace_sleep(dtrace_hdl_t *dtp);

typedef enum {
	DTRACE_WORKSTATUS_ERROR = -1,
	DTRACE_WORKSTATUS_OKAY,
	DTRACE_WORKSTATUS_DONE /* exit() was called or tracing stopped, and all is drained */
} dtrace_workstatus_t;

/*
 * Drain the buffers and print every record to fp as dtrace(1) does (the
 * "quiet" option drops the per-probe lines).  A write to fp that fails
 * gives DTRACE_WORKSTATUS_ERROR with its errno (ENOSPC, EIO...) and fp's
 * error flag set (ferror), so a caller can tell.  Faults are reported through
 * the error handler (default: "dtrace: error on enabled probe ..." on
 * stderr), drops through the drop handler (default: stderr).
 */
DTRACE_API dtrace_workstatus_t dtrace_work(dtrace_hdl_t *dtp, FILE *fp);

/* Messages about faults and drops, one line without its newline. */
typedef void dtrace_msg_f(const char *msg, void *arg);
DTRACE_API int dtrace_handle_err(dtrace_hdl_t *dtp, dtrace_msg_f *func, void *arg);
DTRACE_API int dtrace_handle_drop(dtrace_hdl_t *dtp, dtrace_msg_f *func, void *arg);

/* What happened: exit() and its value. */
#define DTRACE_STATUS_NONE    0
#define DTRACE_STATUS_OKAY    1
#define DTRACE_STATUS_EXITED  2 /* exit() was called */
#define DTRACE_STATUS_STOPPED 3 /* dtrace_stop() was called */
DTRACE_API int dtrace_status(dtrace_hdl_t *dtp);
DTRACE_API int dtrace_exit_value(dtrace_hdl_t *dtp); /* exit()'s argument, or 0 */
/*
 * True when the output is structured (-x oformat=json: one JSON object per
 * line; -x oformat=folded: each aggregation entry a line of folded stacks),
 * and the caller adds no blank lines of its own.
 */
DTRACE_API int dtrace_oformat(dtrace_hdl_t *dtp);

/*
 * The target process.  dtrace_proc_create() starts argv[0] (searched in
 * PATH) stopped just after its exec, so that the probes of its executable
 * can be enabled before it runs; dtrace_proc_continue() lets it go.
 * dtrace_proc_grab() takes a running process and stops it (SIGSTOP) until
 * dtrace_proc_continue(), as illumos does.  Either sets $target (the
 * first one only).  dtrace_proc_exited() is 1 once the target has exited
 * (its wait status in *status, if not NULL: -1 when not our child).
 *
 * Nothing is left behind, as illumos releases its targets: dtrace_close()
 * kills a created process that still runs (and reaps it), and continues a
 * grabbed one, whose semaphores fall as the probes detach.  A created
 * process is also killed (SIGKILL) when the caller dies, by any signal:
 * the kernel sends it when the thread that called dtrace_proc_create()
 * exits (PR_SET_PDEATHSIG), so call it from a thread that lives as long
 * as the handle (the main thread, in a program that exits with it).
 */
DTRACE_API int dtrace_proc_create(dtrace_hdl_t *dtp, char *const argv[]);
DTRACE_API int dtrace_proc_grab(dtrace_hdl_t *dtp, int pid);
DTRACE_API int dtrace_proc_continue(dtrace_hdl_t *dtp);
DTRACE_API int dtrace_proc_exited(dtrace_hdl_t *dtp, int *status);
DTRACE_API int dtrace_proc_target(dtrace_hdl_t *dtp); /* its PID, or 0 */

/*
 * ---------------------------------------------------------------- records
 *
 * The records API: what dtrace_work() prints, as data.  dtrace_consume()
 * drains the buffers as dtrace_work() does and hands each probe firing
 * and each of its records to callbacks, decoded: integers with their width
 * and sign, strings, bytes, stacks with their frames named, printf()'s
 * formatted text and its arguments.  dtrace_aggregate_walk() calls a
 * function for each aggregation entry with typed keys and values, in the
 * order dtrace_aggregate_print() prints them.  dtrace(1)'s text and JSON
 * outputs come from the same drain and the same snapshots.
 *
 * Structures the library fills start with their size (the size of the
 * library's own, which may be larger than the caller's once fields are
 * added at their end); options structures the caller passes start with
 * sz, set to sizeof the caller's structure: a field beyond sz is taken as
 * 0, and bytes beyond the library's structure must be 0 (EDT_BADARG).
 * Everything a callback receives is borrowed: valid until it returns.
 */
typedef enum dtrace_reckind {
	DTRACE_REC_INT,	   /* an integer: dtr_int and dtr_uint, dtr_width bytes, dtr_signed */
	DTRACE_REC_FLOAT,  /* a float, double or long double (dtr_width 4, 8, 16): dtr_float */
	DTRACE_REC_STRING, /* a string: dtr_str, dtr_len bytes before its NUL */
	DTRACE_REC_BYTES,  /* tracemem(), a struct or union traced (INT when of 1, 2, 4 or 8
			      bytes, as dtrace prints it), print(): dtr_bytes, dtr_len */
	DTRACE_REC_SYM,	   /* usym() ufunc() umod() uaddr() (dtr_pid, the process) or sym()
			      func() mod() (dtr_pid 0): dtr_uint the address, dtr_str its
			      name as dtrace prints it */
	DTRACE_REC_STACK,  /* stack(), ustack(), jstack(): dtr_nframes, dtr_pcs[] innermost
			      first, dtr_frames[] named as printed; dtr_pid (0: stack()) */
	DTRACE_REC_PRINTF, /* printf(): dtr_str the formatted text (dtr_len bytes);
			      dtr_args[dtr_nargs] its arguments, decoded */
	DTRACE_REC_PRINTA, /* printa(): dtr_aggnames[dtr_naggs], dtr_str its format (NULL:
			      none); nothing is printed: dtrace_aggregate_walk() reads them */
	DTRACE_REC_EXIT,   /* exit(): dtr_int the status */
	DTRACE_REC_OTHER   /* an action that prints nothing of its own: dtr_action names it
			      (system, freopen: dtr_str the formatted text; setopt: dtr_str
			      the option; clear, trunc, normalize, denormalize: dtr_aggnames,
			      dtr_int the argument; commit, discard) */
} dtrace_reckind_t;

typedef struct dtrace_record {
	size_t dtr_size; /* sizeof(dtrace_record_t) of the library */
	dtrace_reckind_t dtr_kind;
	const char *dtr_action;	 /* "trace", "tracemem", "print", "printf", "printa", "exit",
				    "system", "freopen", "ftruncate", "setopt", "clear", "trunc",
				    "normalize", "denormalize", "commit", "discard", and "stack",
				    "ustack", "jstack" for those actions; "key" for an
				    aggregation's key, "arg" for printf()'s arguments */
	const char *dtr_type;	 /* the D type as D spells it ("int", "uint64_t", "string",
				    "struct foo"; "stack" for stacks, "_usymaddr_t" and
				    "_symaddr_t" for symbols); "" when the value has none */
	unsigned dtr_width;	 /* INT, FLOAT: the type's size in bytes */
	int dtr_signed;		 /* INT: 1 for a signed type */
	int64_t dtr_int;	 /* INT: the value, sign-extended when signed; EXIT: the status */
	uint64_t dtr_uint;	 /* INT: the value's dtr_width bytes, zero-extended; SYM: the
				    address; BYTES of print(): the pointer */
	double dtr_float;	 /* FLOAT */
	const char *dtr_str;	 /* STRING, SYM, PRINTF, ...: NUL-terminated */
	const void *dtr_bytes;	 /* BYTES */
	size_t dtr_len;		 /* STRING, PRINTF: strlen(dtr_str); BYTES: the bytes */
	int dtr_pid;		 /* SYM, STACK: the process, 0 for the kernel */
	unsigned dtr_nframes;	 /* STACK */
	const uint64_t *dtr_pcs; /* STACK: the frames' addresses */
	const char *const *dtr_frames;	      /* STACK: "module`symbol+0xoff", as dtrace prints */
	const struct dtrace_record *dtr_args; /* PRINTF: its arguments */
	unsigned dtr_nargs;
	const char *const *dtr_aggnames; /* PRINTA, clear...: the aggregations, without @ */
	unsigned dtr_naggs;
	/*
	 * SYM: what is known of the address: its module ("libc.so.6",
	 * "vmlinux"; NULL: none), its symbol (demangled; NULL: none, or umod()
	 * and mod()) and the offset in it; ufunc() and usym() give the
	 * symbol's start as dtr_uint, as they aggregate by it.  STACK: the
	 * same of each frame, dtr_nframes entries each (NULL where unknown).
	 */
	const char *dtr_module;
	const char *dtr_symbol;
	uint64_t dtr_offset;
	const char *const *dtr_fmodules;
	const char *const *dtr_fsymbols;
	const uint64_t *dtr_foffsets;
	/*
	 * The bytes the probe recorded for the value, as it recorded them
	 * (NULL where no single value was: PRINTF, PRINTA, most OTHER;
	 * setopt()'s are its option's name): an integer's or a float's
	 * dtr_datalen bytes (its type's size), a string's whole buffer
	 * (strsize bytes, its NUL and what follows it), tracemem()'s bytes
	 * (its dsize of them when given), the process ID and the address
	 * of a SYM (8 bytes each), the process ID (not for stack()), the
	 * frames (zero after the last) and ustack()'s strsize bytes of a
	 * STACK, print()'s value.
	 */
	const void *dtr_data;
	size_t dtr_datalen;
	unsigned dtr_flags; /* DTRACE_RECF_*: how dtrace(1) prints the value */
} dtrace_record_t;

/*
 * dtr_flags.  A STRING or BYTES record (and a FLOAT recorded as bytes: a
 * long double traced from memory) has one of the first two, as
 * illumos's dt_print_bytes decides: dtrace(1) prints dtr_data as a string
 * when its bytes are printable characters (isprint, isspace, \a, \b) up
 * to a NUL or their end (and, for a struct or union's bytes, only NULs
 * after that NUL), and as a hex dump otherwise: always for tracemem(), and
 * for an empty string.  Neither flag: dtrace(1) prints the value as a
 * number of dtr_datalen bytes (a float's bits), a symbol or a stack.
 */
#define DTRACE_RECF_STRING 0x1 /* printed as a string: dtr_data, up to a NUL */
#define DTRACE_RECF_DUMP   0x2 /* printed as a hex dump of dtr_data's dtr_datalen bytes */
/* A SYM or STACK of the kernel (sym(), func(), mod(), stack()), not of process dtr_pid. */
#define DTRACE_RECF_KERNEL 0x4

/* One probe firing (illumos's dtrace_probedata_t). */
typedef struct dtrace_probedata {
	size_t dtpda_size;		       /* sizeof(dtrace_probedata_t) of the library */
	const dtrace_probedesc_t *dtpda_pdesc; /* the probe */
	int dtpda_cpu;			       /* the CPU it fired on */
	uint32_t dtpda_epid;		       /* the enabled (clause, probe) pair, from 1 */
	unsigned dtpda_nrecs;		       /* the records that follow: one per action */
} dtrace_probedata_t;

/*
 * Faults and drops as data, in the shape of illumos's dtrace_errdata_t and
 * dtrace_dropdata_t: a handler set by dtrace_handle_errdata() or
 * dtrace_handle_dropdata() is called instead of the one of
 * dtrace_handle_err() or dtrace_handle_drop(), with the same message in
 * dteda_msg / dtdda_msg.
 */
typedef struct dtrace_errdata {
	size_t dteda_size;		       /* sizeof(dtrace_errdata_t) of the library */
	const dtrace_probedesc_t *dteda_pdesc; /* the probe */
	uint32_t dteda_epid;		       /* the enabled (clause, probe) pair */
	int dteda_action;	 /* 0 the predicate, N the Nth action; -1 the library's own */
	int dteda_offset;	 /* the offset in the clause's code, or -1 */
	const char *dteda_fault; /* "invalid address", "divide-by-zero", ...; or what the
				    library's action could not do */
	uint64_t dteda_addr;	 /* the address of an invalid address */
	const char *dteda_msg;	 /* "error on enabled probe ID ...", as dtrace(1) prints it */
} dtrace_errdata_t;

typedef struct dtrace_dropdata {
	size_t dtdda_size;	/* sizeof(dtrace_dropdata_t) of the library */
	int dtdda_cpu;		/* the CPU, or -1 for all of them */
	const char *dtdda_kind; /* "principal", "aggregation", "dynamic", "speculative",
				   "speculation_busy", "speculation_unavailable", "tick"
				   (tick-N firings whose program the kernel skipped), or
				   "fponly" (user stacks unwound by frame pointers alone) */
	uint64_t dtdda_drops;	/* how many since the last report */
	const char *dtdda_msg;	/* "N drops on CPU M", as dtrace(1) prints it */
} dtrace_dropdata_t;

typedef void dtrace_errdata_f(const dtrace_errdata_t *data, void *arg);
typedef void dtrace_dropdata_f(const dtrace_dropdata_t *data, void *arg);
/* Set (func non-NULL) or remove the handler: 0, or -1 with EDT_BADARG (dtp NULL). */
DTRACE_API int dtrace_handle_errdata(dtrace_hdl_t *dtp, dtrace_errdata_f *func, void *arg);
DTRACE_API int dtrace_handle_dropdata(dtrace_hdl_t *dtp, dtrace_dropdata_f *func, void *arg);

/* What a consume callback returns (illumos's values). */
#define DTRACE_CONSUME_ERROR -1 /* stop: dtrace_consume() fails with EDT_CALLBACK */
#define DTRACE_CONSUME_THIS  0	/* go on: the records of this firing */
#define DTRACE_CONSUME_NEXT  1	/* skip the rest of this firing's records */
#define DTRACE_CONSUME_ABORT 2	/* stop: dtrace_consume() fails with EDT_DIRABORT */

typedef int dtrace_consume_probe_f(const dtrace_probedata_t *data, void *arg);
/* rec is NULL once the firing's records are over (not after NEXT). */
typedef int dtrace_consume_rec_f(const dtrace_probedata_t *data, const dtrace_record_t *rec,
				 void *arg);

typedef struct dtrace_consume_opts {
	size_t sz;		       /* sizeof(dtrace_consume_opts_t) */
	dtrace_consume_probe_f *probe; /* each firing; may be NULL */
	dtrace_consume_rec_f *rec;     /* each record; may be NULL */
	void *arg;		       /* passed to both */
} dtrace_consume_opts_t;

/*
 * dtrace_work() with records going to the callbacks instead of text: the
 * same drain and statuses, the same speculations (a commit passes what it
 * commits right after its own firing, in the order recorded), drops and
 * faults through the handlers (dtrace_handle_drop, _err), exit() handled
 * (its EXIT record passed too).  The library still does the actions that
 * act on tracing: exit(), setopt(), clear(), trunc(), normalize(),
 * denormalize(), commit(), discard() and system() (its command is run), even
 * in a firing whose records a callback skipped; it does not do those that
 * act on an output (freopen(), ftruncate(): the record says what was asked)
 * and prints nothing (printa(): a PRINTA record).  As in dtrace(1), a
 * clause that records nothing fires with no records unless the "quiet"
 * option is set, when it is not passed at all; -F's flow column and the
 * oformat option do not apply.
 * A callback's ERROR or ABORT stops the calls: the other records of this
 * pass are drained without callbacks (their library actions still done),
 * and DTRACE_WORKSTATUS_ERROR is returned with EDT_CALLBACK or
 * EDT_DIRABORT.  Bad opts (NULL, sz too small, unknown trailing bytes
 * set): EDT_BADARG.  Tracing errors: as dtrace_work().
 * A callback may call dtrace_aggregate_walk() (for a PRINTA record),
 * dtrace_getopt() and dtrace_errmsg(); dtrace_work() and dtrace_consume()
 * from a callback fail with EDT_BADARG, and it must not close the handle.
 */
DTRACE_API dtrace_workstatus_t dtrace_consume(dtrace_hdl_t *dtp, const dtrace_consume_opts_t *o);

/* Aggregating functions. */
typedef enum dtrace_aggkind {
	DTRACE_AGG_COUNT,
	DTRACE_AGG_SUM,
	DTRACE_AGG_AVG,
	DTRACE_AGG_MIN,
	DTRACE_AGG_MAX,
	DTRACE_AGG_STDDEV,
	DTRACE_AGG_QUANTIZE,
	DTRACE_AGG_LQUANTIZE,
	DTRACE_AGG_LLQUANTIZE
} dtrace_aggkind_t;

/* The function's name as D spells it ("count", "llquantize"), or NULL for no such kind. */
DTRACE_API const char *dtrace_aggkind_name(dtrace_aggkind_t kind);

/*
 * A bucket of quantize(), lquantize() or llquantize(): the values it
 * holds, lo to hi (INT64_MIN, INT64_MAX at the open ends), and its count
 * (normalized).  The label dtrace prints is lo, but hi for quantize()'s
 * negative buckets.
 */
typedef struct dtrace_aggbucket {
	int64_t dtab_lo, dtab_hi;
	int64_t dtab_count;
} dtrace_aggbucket_t;

/* One aggregation entry. */
typedef struct dtrace_aggdata {
	size_t dtada_size;	/* sizeof(dtrace_aggdata_t) of the library */
	const char *dtada_name; /* "" for @, else the name without @ */
	int dtada_id;		/* the aggregation's id, from 1 */
	dtrace_aggkind_t dtada_kind;
	unsigned dtada_nkeys;
	const dtrace_record_t *dtada_keys; /* dtr_action "key" */
	int64_t dtada_value;		   /* count, sum, min, max, avg, stddev as dtrace prints
					 them (normalized; avg and stddev truncated) */
	double dtada_fvalue;		   /* the same; avg and stddev not truncated */
	unsigned dtada_nbuckets;	   /* quantizations: the buckets dtrace prints, */
	const dtrace_aggbucket_t *dtada_buckets; /* lowest first */
	int64_t dtada_normal;			 /* normalize()'s factor; 1 without one */
	const int64_t *dtada_counts; /* quantizations: each bucket's count before normalize()
					(a bucket may hold values and show 0) */
} dtrace_aggdata_t;

/* Return 0 to go on; any other value stops the walk and is returned. */
typedef int dtrace_aggwalk_f(const dtrace_aggdata_t *data, void *arg);

#define DTRACE_AGGWALK_MARK 0x1 /* mark them printed, as dtrace_aggregate_print() does */

typedef struct dtrace_aggwalk_opts {
	size_t sz;	  /* sizeof(dtrace_aggwalk_opts_t) */
	const char *name; /* one aggregation, without @ ("" for @); NULL: all */
	int flags;	  /* DTRACE_AGGWALK_* */
} dtrace_aggwalk_opts_t;

/*
 * Call f for every entry of every aggregation (o->name: of that one; o
 * NULL: all), in the order dtrace_aggregate_print() prints them: the
 * aggregations in dtrace(1)'s order, each one's entries sorted as the
 * aggsortkey, aggsortkeypos and aggsortrev options say, with normalize()
 * applied; a quantization's buckets those its rows show (aggpack and
 * agghist, which draw them otherwise, change nothing here), its
 * dtada_value 0.  A snapshot of the kernel's maps is taken first:
 * valid while tracing and after dtrace_stop().  Every aggregation is
 * walked, printed by printa() or not (dtrace_aggregate_print() skips
 * those); with DTRACE_AGGWALK_MARK those walked are marked printed.
 * Returns 0, f's non-zero value, or -1 with EDT_BADARG (f NULL, bad opts,
 * no aggregation of that name), EDT_NOTRACE (not tracing), EDT_NOMEM.
 */
DTRACE_API int dtrace_aggregate_walk(dtrace_hdl_t *dtp, const dtrace_aggwalk_opts_t *o,
				     dtrace_aggwalk_f *f, void *arg);

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_H */
