/*
 * dt_builtin.c -- D's built-in variables, subroutines, actions and
 * aggregating functions, with their signatures (Dynamic Tracing Guide).
 *
 * Argument kinds, one letter per position:
 *   i  integer            s  string (or char pointer/array)
 *   p  pointer or integer a  any scalar or string
 *   x  any value          g  an aggregation
 *   f  a constant format string
 *   c  an integer constant
 * A '*' after the last letter repeats it (printf's values, printa's
 * aggregations).
 */
#include <string.h>

#include "dt_impl.h"

/*
 * A row at its id's place in the table, carrying its id: the two cannot
 * differ, and the compiler refuses an id given two rows (-Woverride-init,
 * in -Wextra).  An id given none would be a hole: the unit test looks.
 */
#define ROW(id, ...) [DT_B_##id] = { .db_id = DT_B_##id, __VA_ARGS__ }

/*
 * The Guide's variables and subroutines that read kernel structures (the
 * CPU's chip and lgroup, device numbers, kernel locks, STREAMS messages,
 * the file table): they stay reserved, and using one says why it cannot
 * work here.
 */
#define KERNEL_VAR(id, n) ROW(id, .db_name = n, .db_kind = DB_VAR, .db_flags = DB_F_KERNEL)
#define KERNEL_SUB(id, n) \
	ROW(id, .db_name = n, .db_kind = DB_FUNC, .db_maxargs = -1, .db_flags = DB_F_KERNEL)

static const dt_builtin_t builtins[] = {
	/* variables */
	ROW(ARG0, .db_name = "arg0", .db_kind = DB_VAR, .db_type = "int64_t"),
	ROW(ARG1, .db_name = "arg1", .db_kind = DB_VAR, .db_type = "int64_t"),
	ROW(ARG2, .db_name = "arg2", .db_kind = DB_VAR, .db_type = "int64_t"),
	ROW(ARG3, .db_name = "arg3", .db_kind = DB_VAR, .db_type = "int64_t"),
	ROW(ARG4, .db_name = "arg4", .db_kind = DB_VAR, .db_type = "int64_t"),
	ROW(ARG5, .db_name = "arg5", .db_kind = DB_VAR, .db_type = "int64_t"),
	ROW(ARG6, .db_name = "arg6", .db_kind = DB_VAR, .db_type = "int64_t"),
	ROW(ARG7, .db_name = "arg7", .db_kind = DB_VAR, .db_type = "int64_t"),
	ROW(ARG8, .db_name = "arg8", .db_kind = DB_VAR, .db_type = "int64_t"),
	ROW(ARG9, .db_name = "arg9", .db_kind = DB_VAR, .db_type = "int64_t"),
	ROW(ARGS, .db_name = "args", .db_kind = DB_VAR, .db_type = NULL, .db_minargs = 0,
	    .db_maxargs = 0, .db_args = NULL, .db_flags = DB_F_ARGS),
	ROW(CALLER, .db_name = "caller", .db_kind = DB_VAR, .db_type = "uintptr_t"),
	ROW(CPU, .db_name = "cpu", .db_kind = DB_VAR, .db_type = "processorid_t"),
	ROW(CURLWPSINFO, .db_name = "curlwpsinfo", .db_kind = DB_VAR, .db_type = "lwpsinfo_t *",
	    .db_flags = DB_F_XLPTR),
	ROW(CURPSINFO, .db_name = "curpsinfo", .db_kind = DB_VAR, .db_type = "psinfo_t *",
	    .db_flags = DB_F_XLPTR),
	/* procfs.d's pr_psargs: the current process's arguments (a translator cannot read them) */
	ROW(__CURPSARGS, .db_name = "__curpsargs", .db_kind = DB_VAR, .db_type = "string"),
	ROW(CURTHREAD, .db_name = "curthread", .db_kind = DB_VAR, .db_type = "uintptr_t"),
	ROW(CWD, .db_name = "cwd", .db_kind = DB_VAR, .db_type = "string"),
	ROW(EPID, .db_name = "epid", .db_kind = DB_VAR, .db_type = "uint_t"),
	ROW(ERRNO, .db_name = "errno", .db_kind = DB_VAR, .db_type = "int"),
	ROW(EXECNAME, .db_name = "execname", .db_kind = DB_VAR, .db_type = "string"),
	ROW(GID, .db_name = "gid", .db_kind = DB_VAR, .db_type = "gid_t"),
	ROW(ID, .db_name = "id", .db_kind = DB_VAR, .db_type = "uint_t"),
	ROW(PID, .db_name = "pid", .db_kind = DB_VAR, .db_type = "pid_t"),
	ROW(PPID, .db_name = "ppid", .db_kind = DB_VAR, .db_type = "pid_t"),
	ROW(PROBEFUNC, .db_name = "probefunc", .db_kind = DB_VAR, .db_type = "string"),
	ROW(PROBEMOD, .db_name = "probemod", .db_kind = DB_VAR, .db_type = "string"),
	ROW(PROBENAME, .db_name = "probename", .db_kind = DB_VAR, .db_type = "string"),
	ROW(PROBEPROV, .db_name = "probeprov", .db_kind = DB_VAR, .db_type = "string"),
	ROW(ROOT, .db_name = "root", .db_kind = DB_VAR, .db_type = "string"),
	ROW(STACKDEPTH, .db_name = "stackdepth", .db_kind = DB_VAR, .db_type = "uint_t"),
	ROW(TID, .db_name = "tid", .db_kind = DB_VAR, .db_type = "id_t"),
	ROW(TIMESTAMP, .db_name = "timestamp", .db_kind = DB_VAR, .db_type = "uint64_t"),
	ROW(UCALLER, .db_name = "ucaller", .db_kind = DB_VAR, .db_type = "uint64_t"),
	ROW(UID, .db_name = "uid", .db_kind = DB_VAR, .db_type = "uid_t"),
	ROW(UREGS, .db_name = "uregs", .db_kind = DB_VAR, .db_type = "uint64_t", .db_minargs = 0,
	    .db_maxargs = 0, .db_args = NULL, .db_flags = DB_F_REGS),
	ROW(USTACKDEPTH, .db_name = "ustackdepth", .db_kind = DB_VAR, .db_type = "uint_t"),
	ROW(VTIMESTAMP, .db_name = "vtimestamp", .db_kind = DB_VAR, .db_type = "uint64_t"),
	ROW(WALLTIMESTAMP, .db_name = "walltimestamp", .db_kind = DB_VAR, .db_type = "int64_t"),
	ROW(ZONENAME, .db_name = "zonename", .db_kind = DB_VAR, .db_type = "string"),

	/* subroutines: they return a value */
	ROW(ALLOCA, .db_name = "alloca", .db_kind = DB_FUNC, .db_type = "void *", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "i"),
	ROW(BASENAME, .db_name = "basename", .db_kind = DB_FUNC, .db_type = "string",
	    .db_minargs = 1, .db_maxargs = 1, .db_args = "s"),
	ROW(BCOPY, .db_name = "bcopy", .db_kind = DB_FUNC, .db_type = "void", .db_minargs = 3,
	    .db_maxargs = 3, .db_args = "ppi"),
	ROW(CLEANPATH, .db_name = "cleanpath", .db_kind = DB_FUNC, .db_type = "string",
	    .db_minargs = 1, .db_maxargs = 1, .db_args = "s"),
	ROW(COPYIN, .db_name = "copyin", .db_kind = DB_FUNC, .db_type = "void *", .db_minargs = 2,
	    .db_maxargs = 2, .db_args = "pi"),
	ROW(COPYINSTR, .db_name = "copyinstr", .db_kind = DB_FUNC, .db_type = "string",
	    .db_minargs = 1, .db_maxargs = 2, .db_args = "pi"),
	ROW(COPYINTO, .db_name = "copyinto", .db_kind = DB_FUNC, .db_type = "void", .db_minargs = 3,
	    .db_maxargs = 3, .db_args = "pip"),
	ROW(DIRNAME, .db_name = "dirname", .db_kind = DB_FUNC, .db_type = "string", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "s"),
	/* device numbers: the kernel's dev_t (the io provider's b_edev) */
	ROW(GETMAJOR, .db_name = "getmajor", .db_kind = DB_FUNC, .db_type = "uint32_t",
	    .db_minargs = 1, .db_maxargs = 1, .db_args = "i"),
	ROW(GETMINOR, .db_name = "getminor", .db_kind = DB_FUNC, .db_type = "uint32_t",
	    .db_minargs = 1, .db_maxargs = 1, .db_args = "i"),
	ROW(HTONL, .db_name = "htonl", .db_kind = DB_FUNC, .db_type = "uint32_t", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "i"),
	ROW(HTONLL, .db_name = "htonll", .db_kind = DB_FUNC, .db_type = "uint64_t", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "i"),
	ROW(HTONS, .db_name = "htons", .db_kind = DB_FUNC, .db_type = "uint16_t", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "i"),
	ROW(INDEX, .db_name = "index", .db_kind = DB_FUNC, .db_type = "int", .db_minargs = 2,
	    .db_maxargs = 3, .db_args = "ssi"),
	ROW(INET_NTOA, .db_name = "inet_ntoa", .db_kind = DB_FUNC, .db_type = "string",
	    .db_minargs = 1, .db_maxargs = 1, .db_args = "p"),
	ROW(INET_NTOA6, .db_name = "inet_ntoa6", .db_kind = DB_FUNC, .db_type = "string",
	    .db_minargs = 1, .db_maxargs = 1, .db_args = "p"),
	ROW(INET_NTOP, .db_name = "inet_ntop", .db_kind = DB_FUNC, .db_type = "string",
	    .db_minargs = 2, .db_maxargs = 2, .db_args = "ip"),
	ROW(JSON, .db_name = "json", .db_kind = DB_FUNC, .db_type = "string", .db_minargs = 2,
	    .db_maxargs = 2, .db_args = "ss"),
	ROW(LLTOSTR, .db_name = "lltostr", .db_kind = DB_FUNC, .db_type = "string", .db_minargs = 1,
	    .db_maxargs = 2, .db_args = "ii"),
	ROW(NTOHL, .db_name = "ntohl", .db_kind = DB_FUNC, .db_type = "uint32_t", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "i"),
	ROW(NTOHLL, .db_name = "ntohll", .db_kind = DB_FUNC, .db_type = "uint64_t", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "i"),
	ROW(NTOHS, .db_name = "ntohs", .db_kind = DB_FUNC, .db_type = "uint16_t", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "i"),
	ROW(PROGENYOF, .db_name = "progenyof", .db_kind = DB_FUNC, .db_type = "int",
	    .db_minargs = 1, .db_maxargs = 1, .db_args = "i"),
	ROW(RAND, .db_name = "rand", .db_kind = DB_FUNC, .db_type = "int", .db_minargs = 0,
	    .db_maxargs = 0, .db_args = ""),
	ROW(RINDEX, .db_name = "rindex", .db_kind = DB_FUNC, .db_type = "int", .db_minargs = 2,
	    .db_maxargs = 3, .db_args = "ssi"),
	ROW(SPECULATION, .db_name = "speculation", .db_kind = DB_FUNC, .db_type = "int",
	    .db_minargs = 0, .db_maxargs = 0, .db_args = ""),
	ROW(STRCHR, .db_name = "strchr", .db_kind = DB_FUNC, .db_type = "string", .db_minargs = 2,
	    .db_maxargs = 2, .db_args = "si"),
	ROW(STRJOIN, .db_name = "strjoin", .db_kind = DB_FUNC, .db_type = "string", .db_minargs = 2,
	    .db_maxargs = 2, .db_args = "ss"),
	ROW(STRLEN, .db_name = "strlen", .db_kind = DB_FUNC, .db_type = "size_t", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "s"),
	ROW(STRRCHR, .db_name = "strrchr", .db_kind = DB_FUNC, .db_type = "string", .db_minargs = 2,
	    .db_maxargs = 2, .db_args = "si"),
	ROW(STRSTR, .db_name = "strstr", .db_kind = DB_FUNC, .db_type = "string", .db_minargs = 2,
	    .db_maxargs = 2, .db_args = "ss"),
	ROW(STRTOK, .db_name = "strtok", .db_kind = DB_FUNC, .db_type = "string", .db_minargs = 2,
	    .db_maxargs = 2, .db_args = "ss"),
	ROW(STRTOLL, .db_name = "strtoll", .db_kind = DB_FUNC, .db_type = "int64_t",
	    .db_minargs = 1, .db_maxargs = 2, .db_args = "si"),
	ROW(SUBSTR, .db_name = "substr", .db_kind = DB_FUNC, .db_type = "string", .db_minargs = 2,
	    .db_maxargs = 3, .db_args = "sii"),
	ROW(TOLOWER, .db_name = "tolower", .db_kind = DB_FUNC, .db_type = "string", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "s"),
	ROW(TOUPPER, .db_name = "toupper", .db_kind = DB_FUNC, .db_type = "string", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "s"),
	ROW(FUNC, .db_name = "func", .db_kind = DB_FUNC, .db_type = "_symaddr", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "p", .db_flags = DB_F_SYMADDR),
	ROW(MOD, .db_name = "mod", .db_kind = DB_FUNC, .db_type = "_symaddr", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "p", .db_flags = DB_F_SYMADDR),
	ROW(SYM, .db_name = "sym", .db_kind = DB_FUNC, .db_type = "_symaddr", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "p", .db_flags = DB_F_SYMADDR),
	ROW(UADDR, .db_name = "uaddr", .db_kind = DB_FUNC, .db_type = "_usymaddr", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "p", .db_flags = DB_F_SYMADDR),
	ROW(UFUNC, .db_name = "ufunc", .db_kind = DB_FUNC, .db_type = "_usymaddr", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "p", .db_flags = DB_F_SYMADDR),
	ROW(UMOD, .db_name = "umod", .db_kind = DB_FUNC, .db_type = "_usymaddr", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "p", .db_flags = DB_F_SYMADDR),
	ROW(USYM, .db_name = "usym", .db_kind = DB_FUNC, .db_type = "_usymaddr", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "p", .db_flags = DB_F_SYMADDR),
	ROW(STACK, .db_name = "stack", .db_kind = DB_FUNC, .db_type = "stack", .db_minargs = 0,
	    .db_maxargs = 1, .db_args = "c", .db_flags = DB_F_STACK),
	ROW(USTACK, .db_name = "ustack", .db_kind = DB_FUNC, .db_type = "stack", .db_minargs = 0,
	    .db_maxargs = 2, .db_args = "cc", .db_flags = DB_F_STACK),
	ROW(JSTACK, .db_name = "jstack", .db_kind = DB_FUNC, .db_type = "stack", .db_minargs = 0,
	    .db_maxargs = 2, .db_args = "cc", .db_flags = DB_F_STACK),

	/* actions: statements only */
	ROW(BREAKPOINT, .db_name = "breakpoint", .db_kind = DB_ACTION, .db_type = "void",
	    .db_minargs = 0, .db_maxargs = 0, .db_args = "", .db_flags = DB_F_DESTRUCTIVE),
	ROW(CHILL, .db_name = "chill", .db_kind = DB_ACTION, .db_type = "void", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "i", .db_flags = DB_F_DESTRUCTIVE),
	ROW(CLEAR, .db_name = "clear", .db_kind = DB_ACTION, .db_type = "void", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "g"),
	ROW(COMMIT, .db_name = "commit", .db_kind = DB_ACTION, .db_type = "void", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "i", .db_flags = DB_F_COMMIT),
	ROW(COPYOUT, .db_name = "copyout", .db_kind = DB_ACTION, .db_type = "void", .db_minargs = 3,
	    .db_maxargs = 3, .db_args = "ppi", .db_flags = DB_F_DESTRUCTIVE),
	ROW(COPYOUTSTR, .db_name = "copyoutstr", .db_kind = DB_ACTION, .db_type = "void",
	    .db_minargs = 3, .db_maxargs = 3, .db_args = "spi", .db_flags = DB_F_DESTRUCTIVE),
	ROW(DENORMALIZE, .db_name = "denormalize", .db_kind = DB_ACTION, .db_type = "void",
	    .db_minargs = 1, .db_maxargs = 1, .db_args = "g"),
	ROW(DISCARD, .db_name = "discard", .db_kind = DB_ACTION, .db_type = "void", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "i", .db_flags = DB_F_DISCARD),
	ROW(EXIT, .db_name = "exit", .db_kind = DB_ACTION, .db_type = "void", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "i", .db_flags = DB_F_EXIT),
	ROW(FREOPEN, .db_name = "freopen", .db_kind = DB_ACTION, .db_type = "void", .db_minargs = 1,
	    .db_maxargs = -1, .db_args = "fa*", .db_flags = DB_F_DATA | DB_F_FORMAT),
	ROW(FTRUNCATE, .db_name = "ftruncate", .db_kind = DB_ACTION, .db_type = "void",
	    .db_minargs = 0, .db_maxargs = 0, .db_args = "", .db_flags = DB_F_DATA),
	ROW(NORMALIZE, .db_name = "normalize", .db_kind = DB_ACTION, .db_type = "void",
	    .db_minargs = 2, .db_maxargs = 2, .db_args = "gi"),
	ROW(PANIC, .db_name = "panic", .db_kind = DB_ACTION, .db_type = "void", .db_minargs = 0,
	    .db_maxargs = 0, .db_args = "", .db_flags = DB_F_DESTRUCTIVE),
	ROW(PRINT, .db_name = "print", .db_kind = DB_ACTION, .db_type = "void", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "x", .db_flags = DB_F_DATA),
	ROW(PRINTA, .db_name = "printa", .db_kind = DB_ACTION, .db_type = "void", .db_minargs = 1,
	    .db_maxargs = -1, .db_args = "g*", .db_flags = DB_F_DATA),
	ROW(PRINTF, .db_name = "printf", .db_kind = DB_ACTION, .db_type = "void", .db_minargs = 1,
	    .db_maxargs = -1, .db_args = "fa*", .db_flags = DB_F_DATA | DB_F_FORMAT),
	ROW(RAISE, .db_name = "raise", .db_kind = DB_ACTION, .db_type = "void", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "i", .db_flags = DB_F_DESTRUCTIVE),
	ROW(SETOPT, .db_name = "setopt", .db_kind = DB_ACTION, .db_type = "void", .db_minargs = 1,
	    .db_maxargs = 2, .db_args = "ss"),
	ROW(SPECULATE, .db_name = "speculate", .db_kind = DB_ACTION, .db_type = "void",
	    .db_minargs = 1, .db_maxargs = 1, .db_args = "i", .db_flags = DB_F_SPECULATE),
	ROW(STOP, .db_name = "stop", .db_kind = DB_ACTION, .db_type = "void", .db_minargs = 0,
	    .db_maxargs = 0, .db_args = "", .db_flags = DB_F_DESTRUCTIVE),
	ROW(SYSTEM, .db_name = "system", .db_kind = DB_ACTION, .db_type = "void", .db_minargs = 1,
	    .db_maxargs = -1, .db_args = "fa*", .db_flags = DB_F_DESTRUCTIVE | DB_F_FORMAT),
	ROW(TRACE, .db_name = "trace", .db_kind = DB_ACTION, .db_type = "void", .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "x", .db_flags = DB_F_DATA),
	ROW(TRACEMEM, .db_name = "tracemem", .db_kind = DB_ACTION, .db_type = "void",
	    .db_minargs = 2, .db_maxargs = 3, .db_args = "pii", .db_flags = DB_F_DATA),
	ROW(TRUNC, .db_name = "trunc", .db_kind = DB_ACTION, .db_type = "void", .db_minargs = 1,
	    .db_maxargs = 2, .db_args = "gi"),

	/* aggregating functions: @name[keys] = f(args) only */
	ROW(AVG, .db_name = "avg", .db_kind = DB_AGGFUNC, .db_type = NULL, .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "i"),
	ROW(COUNT, .db_name = "count", .db_kind = DB_AGGFUNC, .db_type = NULL, .db_minargs = 0,
	    .db_maxargs = 0, .db_args = ""),
	ROW(LLQUANTIZE, .db_name = "llquantize", .db_kind = DB_AGGFUNC, .db_type = NULL,
	    .db_minargs = 5, .db_maxargs = 6, .db_args = "icccci"),
	ROW(LQUANTIZE, .db_name = "lquantize", .db_kind = DB_AGGFUNC, .db_type = NULL,
	    .db_minargs = 3, .db_maxargs = 5, .db_args = "iccci"),
	ROW(MAX, .db_name = "max", .db_kind = DB_AGGFUNC, .db_type = NULL, .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "i"),
	ROW(MIN, .db_name = "min", .db_kind = DB_AGGFUNC, .db_type = NULL, .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "i"),
	ROW(QUANTIZE, .db_name = "quantize", .db_kind = DB_AGGFUNC, .db_type = NULL,
	    .db_minargs = 1, .db_maxargs = 2, .db_args = "ii"),
	ROW(STDDEV, .db_name = "stddev", .db_kind = DB_AGGFUNC, .db_type = NULL, .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "i"),
	ROW(SUM, .db_name = "sum", .db_kind = DB_AGGFUNC, .db_type = NULL, .db_minargs = 1,
	    .db_maxargs = 1, .db_args = "i"),
	/* kernel tracing only */
	KERNEL_VAR(CHIP, "chip"),
	KERNEL_VAR(CURCPU, "curcpu"), /* the kernel's cpu_t */
	KERNEL_VAR(IPL, "ipl"),	      /* the interrupt priority level: no such thing here */
	KERNEL_VAR(FDS, "fds"),
	KERNEL_VAR(LGRP, "lgrp"),
	KERNEL_VAR(PSETID, "psetid"),
	KERNEL_SUB(DDI_PATHNAME, "ddi_pathname"),
	KERNEL_SUB(GETF, "getf"),
	KERNEL_SUB(MSGDSIZE, "msgdsize"),
	KERNEL_SUB(MSGSIZE, "msgsize"),
	KERNEL_SUB(MUTEX_OWNED, "mutex_owned"),
	KERNEL_SUB(MUTEX_OWNER, "mutex_owner"),
	KERNEL_SUB(MUTEX_TYPE_ADAPTIVE, "mutex_type_adaptive"),
	KERNEL_SUB(MUTEX_TYPE_SPIN, "mutex_type_spin"),
	KERNEL_SUB(RW_ISWRITER, "rw_iswriter"),
	KERNEL_SUB(RW_READ_HELD, "rw_read_held"),
	KERNEL_SUB(RW_WRITE_HELD, "rw_write_held"),
};

/* The table reaches the last id; that no id before it lacks a row is the unit test's. */
_Static_assert(sizeof(builtins) / sizeof(builtins[0]) == DT_B_NBUILTINS,
	       "builtins[] ends at the last dt_bid_t");

const dt_builtin_t *dt_builtin_table(size_t *n)
{
	*n = DT_B_NBUILTINS;
	return builtins;
}

const dt_builtin_t *dt_builtin_lookup(const char *name)
{
	for (size_t i = 0; i < DT_B_NBUILTINS; i++)
		if (strcmp(builtins[i].db_name, name) == 0)
			return &builtins[i];
	return NULL;
}

const dt_builtin_t *dt_builtin_get(dt_bid_t id)
{
	return (unsigned)id < DT_B_NBUILTINS ? &builtins[id] : NULL;
}
