/*
 * bc_records.h -- the binding-neutral half of a consumer: libdtrace's
 * records (dtrace_consume(), dtrace_aggregate_walk(), the errdata and
 * dropdata handlers) copied into a queue of plain bytes, and a reader that
 * walks the queue back as C structures a binding turns into its own values.
 *
 * Why a queue: what the callbacks receive is borrowed until they return,
 * and they run inside libdtrace's frames, where an interpreter may not
 * run (Python without the GIL, Lua where an error would longjmp through
 * libdtrace, Node on a worker thread).  So the callbacks copy, and the
 * binding reads the copy once libdtrace has returned, on its own thread.
 *
 *   bc_sink_t s;
 *   bc_sink_init(&s, dtp, BC_SINK_PRINTA);
 *   bc_sink_handlers(&s);                  (errdata, dropdata: before dtrace_go)
 *   loop: dtrace_sleep(dtp); bc_consume(&s);
 *         bc_reader_t r = bc_sink_reader(&s);
 *         while (bc_read_entry(&r, &e) > 0) ... build values ...
 *         bc_sink_reset(&s);
 *
 * Entries, in the order they happened: a probe firing (its records
 * follow it inside the entry), the entries of an aggregation that printa()
 * named in that firing (right after it), faults, drops.  bc_aggregate()
 * queues a snapshot of the aggregations the same way.  Every pointer a
 * reader gives points into the queue: valid until the sink is reset,
 * discarded or freed.  Strings are NUL-terminated (and may hold NULs:
 * len says how long); NULL means none.
 *
 * Not thread-safe: one thread fills or reads a sink at a time.  No
 * function aborts on bad input: a reader past a malformed entry returns -1.
 */
#ifndef BC_RECORDS_H
#define BC_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <dtrace.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bc_queue {
	char *buf;
	size_t len, cap;
	size_t whole;	 /* the end of the last whole entry */
	bool failed;	 /* out of memory since the last reset: cut back to whole */
	uint8_t hint[2]; /* the last action and type codes written */
} bc_queue_t;

#define BC_SINK_PRINTA 0x1 /* a printa() record queues its aggregations' entries (marked) */

typedef struct bc_sink {
	dtrace_hdl_t *dtp;
	unsigned flags;
	bc_queue_t q;	 /* whole entries */
	bc_queue_t side; /* printa()'s entries, faults and drops during a firing */
	size_t probe_at; /* where the firing being written starts in q */
	size_t nrecs_at; /* where its record count is */
	uint32_t nrecs, ndata;
	bool in_probe;
	int walkerr; /* a printa() walk's dtrace_errno (0: none) since the last reset */
} bc_sink_t;

/* Start an empty sink for dtp (flags BC_SINK_*). */
void bc_sink_init(bc_sink_t *s, dtrace_hdl_t *dtp, unsigned flags);
/* Install the errdata and dropdata handlers that queue into s; 0, or -1 (dtrace_errno). */
int bc_sink_handlers(bc_sink_t *s);
/*
 * dtrace_consume() into s: every firing, each record, and whatever
 * printa() named.  Returns what dtrace_consume() returned.  Memory
 * running out stops queueing (bc_sink_failed()) and loses the entries
 * that did not fit, not those before.
 */
dtrace_workstatus_t bc_consume(bc_sink_t *s);
/* dtrace_aggregate_walk() (of name, or all if NULL) into s; its return value. */
int bc_aggregate(bc_sink_t *s, const char *name);
/* Whether memory ran out since the last reset. */
bool bc_sink_failed(const bc_sink_t *s);
/* Forget every entry (and the failure). */
void bc_sink_reset(bc_sink_t *s);
/* Free the queues; s may be reused after bc_sink_init. */
void bc_sink_fini(bc_sink_t *s);

/* ---------------------------------------------------------------- reading */

typedef struct bc_reader {
	const char *p, *end;
	bool bad; /* a malformed queue was met (never for a sink's own) */
} bc_reader_t;

/* The whole entries of s, from the first. */
bc_reader_t bc_sink_reader(const bc_sink_t *s);
/* Drop the entries before r's position (those read), keeping the rest. */
void bc_sink_discard(bc_sink_t *s, const bc_reader_t *r);

typedef enum bc_entry_kind {
	BC_PROBE = 'P', /* a firing: its records in recs */
	BC_AGG = 'A',	/* an aggregation's entry: keys in keys, buckets in buckets */
	BC_ERROR = 'F', /* a fault (errdata) */
	BC_DROP = 'D'	/* drops (dropdata) */
} bc_entry_kind_t;

/* An entry read: the fields of its kind are set (the others may hold anything). */
typedef struct bc_entry {
	bc_entry_kind_t kind;
	/* PROBE, ERROR: the probe; PROBE: the CPU it fired on */
	int cpu;
	uint32_t epid, id;
	const char *provider, *module, *function, *name;
	/* PROBE: nrecs records (bc_read_value), ndata of them data (bc_is_data) */
	uint32_t nrecs, ndata;
	bc_reader_t recs;
	/* AGG */
	const char *aggname;	   /* "" for @ */
	const char *function_name; /* "count", "quantize", ... */
	int aggid;
	dtrace_aggkind_t aggkind;
	bool printa; /* queued for a printa() of the firing before it */
	uint32_t nkeys;
	bc_reader_t keys; /* bc_read_value */
	int64_t value;	  /* count ... stddev, as dtrace prints them */
	double fvalue;
	uint32_t nbuckets; /* quantizations: the non-empty buckets (bc_read_bucket) */
	bc_reader_t buckets;
	/* ERROR */
	int action, offset;
	const char *fault;
	bool has_addr; /* an invalid address: addr is it */
	uint64_t addr;
	/* DROP */
	const char *dropkind; /* "principal", "aggregation", ... */
	uint64_t count;
	/* ERROR, DROP: the message dtrace(1) prints */
	const char *msg;
} bc_entry_t;

/* One record (dtrace_record_t's kinds and fields, as far as they are data). */
typedef struct bc_value {
	dtrace_reckind_t kind;
	const char *action; /* "trace", "printf", ..., "key", "arg" */
	bool is_data;	    /* bc_is_data(action) */
	const char *type;   /* the D type; "" when none */
	unsigned width;	    /* INT, FLOAT */
	bool is_signed;	    /* INT */
	int64_t i;	    /* INT (sign-extended when signed), EXIT: the status, OTHER: its arg */
	uint64_t u;	    /* INT: zero-extended */
	double f;	    /* FLOAT */
	/*
	 * STRING, PRINTF: the text; BYTES: the bytes; SYM: the name as dtrace
	 * prints it; PRINTA: its format (NULL: none); OTHER: dtr_str.
	 */
	const char *str;
	size_t len;
	uint64_t addr;		     /* SYM: the address; BYTES of print(): the pointer */
	int pid;		     /* SYM, STACK: the process, 0 for the kernel */
	const char *module, *symbol; /* SYM (NULL: unknown) */
	uint64_t offset;
	/* STACK: n frames (bc_read_frame); PRINTF: n args (bc_read_value); PRINTA and
	 * OTHER: n aggregation names (bc_read_name) */
	uint32_t n;
	bc_reader_t sub;
} bc_value_t;

typedef struct bc_frame {
	uint64_t pc;
	const char *module, *symbol; /* NULL: unknown */
	uint64_t offset;
	const char *name; /* "module`symbol+0xoff", as printed */
} bc_frame_t;

/* Each returns 1 and fills its argument, 0 at the end, -1 on a malformed queue. */
int bc_read_entry(bc_reader_t *r, bc_entry_t *e);
int bc_read_value(bc_reader_t *r, bc_value_t *v);
int bc_read_frame(bc_reader_t *r, bc_frame_t *f);
int bc_read_bucket(bc_reader_t *r, dtrace_aggbucket_t *b);
int bc_read_name(bc_reader_t *r, const char **name);

/* Whether a record of this action is data a firing's values show (trace, printf, stack...). */
bool bc_is_data(const char *action);
/* Whether print()'s typed bytes: BYTES with dtr_action "print" (addr and type set). */
bool bc_is_print(const bc_value_t *v);

#ifdef __cplusplus
}
#endif

#endif
