/*
 * ks.h -- the kernel shim: everything that touches the kernel, for
 * libdtrace's code generator and consumer.  Not a public API of the
 * toolchain: libdtrace links it in.
 *
 *   - BPF instruction building (the code generator emits through these);
 *   - loading programs and creating maps (through libbpf's low-level API);
 *   - attaching programs to uprobes with the kernel's ref_ctr semaphore
 *     (never by writing /proc/PID/mem), and to perf events;
 *   - reading and writing map elements, reading the per-CPU output
 *     buffers, and the kernel's own types (BTF);
 *   - probing kernel features once.
 *
 * Nothing outside kernel-shim/ calls libbpf, bpf(2) or perf_event_open
 * (tests/unit/kernel_boundary.sh fails on a call elsewhere).
 *
 * Errors: functions return a file descriptor, a count or 0 on success and
 * a negative errno on failure; ks_prog_load() fills a caller's buffer with
 * the verifier's log.
 */
#ifndef KS_H
#define KS_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* ---------------------------------------------------------------- instructions */

#define KS_INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })

#define KS_MOV64_IMM(d, imm)	    KS_INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, imm)
#define KS_MOV64_REG(d, s)	    KS_INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define KS_ALU64_IMM(op, d, imm)    KS_INSN(BPF_ALU64 | (op) | BPF_K, d, 0, 0, imm)
#define KS_ALU64_REG(op, d, s)	    KS_INSN(BPF_ALU64 | (op) | BPF_X, d, s, 0, 0)
#define KS_LDX_MEM(sz, d, s, off)   KS_INSN(BPF_LDX | (sz) | BPF_MEM, d, s, off, 0)
#define KS_STX_MEM(sz, d, s, off)   KS_INSN(BPF_STX | (sz) | BPF_MEM, d, s, off, 0)
#define KS_ST_MEM(sz, d, off, imm)  KS_INSN(BPF_ST | (sz) | BPF_MEM, d, 0, off, imm)
#define KS_ATOMIC_ADD64(d, s, off)  KS_INSN(BPF_STX | BPF_DW | BPF_ATOMIC, d, s, off, BPF_ADD)
#define KS_JMP_IMM(op, d, imm, off) KS_INSN(BPF_JMP | (op) | BPF_K, d, 0, off, imm)
#define KS_JMP_REG(op, d, s, off)   KS_INSN(BPF_JMP | (op) | BPF_X, d, s, off, 0)
#define KS_JA(off)		    KS_INSN(BPF_JMP | BPF_JA, 0, 0, off, 0)
#define KS_CALL(helper)		    KS_INSN(BPF_JMP | BPF_CALL, 0, 0, 0, helper)
#define KS_EXIT()		    KS_INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* r0 = *(u64 *)(d + off), and if it was r0 (before) *(u64 *)(d + off) = s: atomically */
#define KS_ATOMIC_CMPXCHG64(d, s, off) \
	KS_INSN(BPF_STX | BPF_DW | BPF_ATOMIC, d, s, off, BPF_CMPXCHG)

/* d converted to a bits-wide integer in byte order end (BPF_TO_BE, BPF_TO_LE), zero-extended */
#define KS_ENDIAN(end, d, bits) KS_INSN(BPF_ALU | BPF_END | (end), d, 0, 0, bits)
/* a map's fd into d: two instructions */
#define KS_LD_MAP_FD(d, fd) \
	KS_INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd), KS_INSN(0, 0, 0, 0, 0)
/* a 64-bit constant into d: two instructions */
#define KS_LD_IMM64(d, v)                                                    \
	KS_INSN(BPF_LD | BPF_DW | BPF_IMM, d, 0, 0, (int32_t)(uint32_t)(v)), \
	    KS_INSN(0, 0, 0, 0, (int32_t)(uint32_t)((uint64_t)(v) >> 32))

/* A growing program. */
typedef struct ks_code {
	struct bpf_insn *kc_insns;
	size_t kc_len, kc_cap;
	bool kc_oom; /* an emit failed for memory: the code is unusable */
	/*
	 * A global function (BTF_FUNC_GLOBAL: the verifier checks it once,
	 * not at each call): its first instruction, 0 for none, and the
	 * size its two arguments point to: int f(char (*)[kc_gsize],
	 * char (*)[kc_gsize]), each possibly NULL for the verifier.
	 */
	uint32_t kc_gfunc, kc_gsize;
} ks_code_t;

void ks_emit(ks_code_t *, const struct bpf_insn *, size_t n);
void ks_code_free(ks_code_t *);

/* ---------------------------------------------------------------- maps, programs */

/*
 * Failures on demand, for the tests (ks_fault.c): the operations that
 * DTRACE_KS_FAULT can make fail.  0, or the negative errno the caller's
 * operation must return instead of doing anything.
 */
typedef enum ks_op {
	KS_OP_MAP_CREATE,
	KS_OP_MAP_UPDATE,
	KS_OP_PROG_LOAD,
	KS_OP_ATTACH,
	KS_OP_PERFBUF,
	KS_OP_N
} ks_op_t;
int ks_fault(ks_op_t);

/* flags: BPF_F_NO_PREALLOC... */
int ks_map_create(enum bpf_map_type type, const char *name, uint32_t key_size, uint32_t value_size,
		  uint32_t max_entries, uint32_t flags);
/*
 * An array of max_entries maps (BPF_MAP_TYPE_ARRAY_OF_MAPS) that hold maps
 * like inner_fd: a program finds one by index, and the maps it reaches so
 * do not count against the kernel's 64 maps a program may name.
 */
int ks_map_create_outer(const char *name, uint32_t max_entries, int inner_fd);

/*
 * One element of a map, by key.  A value of a per-CPU map is every possible
 * CPU's value (ks_ncpus() of them), each rounded up to 8 bytes.  0, or a
 * negative errno: -ENOENT for a key that is not there (lookup, delete,
 * update with BPF_EXIST), -EEXIST for one that is (BPF_NOEXIST), -E2BIG
 * for a full map.
 */
int ks_map_lookup(int fd, const void *key, void *val);
int ks_map_update(int fd, const void *key, const void *val, uint64_t flags); /* BPF_ANY... */
int ks_map_delete(int fd, const void *key);

/*
 * The key after key into next (key NULL: the first key).  -ENOENT after the
 * last one.  A key that has gone from a hash map meanwhile starts the walk
 * again from the first key, as the kernel does.
 */
int ks_map_next_key(int fd, const void *key, void *next);

/*
 * Reading a whole map, many entries a call: a cursor the caller keeps,
 * set up with ks_map_batch_init() and released with ks_map_batch_fini().
 * keysize and valsize are a key's and a value's bytes as ks_map_lookup()
 * reads them.  Kernels without batched reads (before 5.6), and map types
 * without them, are read one key at a time behind the same calls.
 */
typedef struct ks_map_batch {
	int mb_fd;
	uint32_t mb_keysize, mb_valsize;
	/* the shim's */
	int mb_state;	   /* first call, batched, one key at a time, done */
	uint64_t mb_token; /* the kernel's place in the map (batched) */
	void *mb_last;	   /* the last key read (one at a time) */
} ks_map_batch_t;

void ks_map_batch_init(ks_map_batch_t *, int fd, uint32_t keysize, uint32_t valsize);
/*
 * Up to n entries: keys into keys (n * keysize bytes), their values into
 * vals (n * valsize bytes).  Returns how many were read, 0 when the map has
 * no more, or a negative errno (-ENOSPC: a hash bucket holds more than n
 * keys; ask again with more room).  A map written meanwhile may be read
 * with an entry missing or twice.
 */
int ks_map_lookup_batch(ks_map_batch_t *, void *keys, void *vals, uint32_t n);
void ks_map_batch_fini(ks_map_batch_t *); /* accepts NULL */
/*
 * Whether the map has been read to its end.  A batch can hold fewer than n
 * entries with more to come: the kernel stops before a hash bucket that
 * does not fit whole.
 */
bool ks_map_batch_done(const ks_map_batch_t *);

/*
 * A hash map's entries as one stream (bpf_iter on bpf_map_elem, Linux
 * 5.9): cheaper than batches for big maps, where the kernel locks each
 * bucket and copies it out on its own.  ks_map_iter_prog() loads the
 * program for keys of keysize and values of valsize bytes (btf_id:
 * ks_btf_id(b, "bpf_iter_bpf_map_elem", BTF_KIND_FUNC)); ks_map_iter_open()
 * gives an fd whose read() yields each entry of map_fd, its key then its
 * value, until it returns 0; close it after.  Each returns an fd or a
 * negative errno.  A map written meanwhile may be read with an entry
 * missing or twice.
 */
int ks_map_iter_prog(uint32_t btf_id, uint32_t keysize, uint32_t valsize);
int ks_map_iter_open(int prog_fd, int map_fd);

/* The number of possible CPUs (per-CPU maps hold a value for each), or a negative errno. */
int ks_ncpus(void);
/*
 * Load; on failure the verifier's log (if any) is in log.  attach_type is
 * the program's expected attach type: 0, or KS_UPROBE_MULTI for a program
 * ks_attach_uprobes() will attach.
 */
int ks_prog_load(enum bpf_prog_type type, uint32_t attach_type, const char *name,
		 const ks_code_t *code, char *log, size_t loglen);

#define KS_UPROBE_MULTI 48 /* BPF_TRACE_UPROBE_MULTI (Linux 6.6), newer than our headers */

/*
 * ks_prog_load() for a program bound to a kernel type when it loads:
 * BPF_PROG_TYPE_TRACING with attach type BPF_TRACE_RAW_TP (tp_btf: the
 * tracepoint's btf_trace_NAME typedef), BPF_TRACE_FENTRY or
 * BPF_TRACE_FEXIT (fentry, fexit: the function's FUNC), where btf_id is
 * that type's id in vmlinux BTF (ks_btf_id()).  Its context is the
 * tracepoint's or the function's arguments, 8 bytes each (and, for fexit,
 * the return value after them).
 */
int ks_prog_load_btf(enum bpf_prog_type type, uint32_t attach_type, uint32_t btf_id,
		     const char *name, const ks_code_t *code, char *log, size_t loglen);

/*
 * Run a BPF_PROG_TYPE_RAW_TRACEPOINT program once, now, in this thread and
 * on this CPU, with a context of zeroed arguments (BPF_PROG_TEST_RUN).
 * Returns 0 or a negative errno.  This is how a tracer fires probes of its
 * own (dtrace's BEGIN and END) without attaching anything.
 */
int ks_prog_run(int prog_fd);

/* ---------------------------------------------------------------- attaching */

/*
 * Attach prog_fd to a uprobe at a file offset of path, in every process
 * (pid -1) or one.  ref_ctr_off, if non-zero, is the file offset of the
 * probe's semaphore: the kernel raises it in each process that maps the
 * file while the probe is attached and lowers it after.  Returns the
 * attachment's fd (close it to detach) or a negative errno.
 */
int ks_attach_uprobe(int prog_fd, const char *path, uint64_t offset, uint64_t ref_ctr_off, bool ret,
		     pid_t pid);

/*
 * Attach prog_fd (loaded with KS_UPROBE_MULTI) to n uprobes of one file in
 * one link: offs[i] are file offsets, refs[i] their semaphores (or 0),
 * cookies[i] what bpf_get_attach_cookie() returns there (cookies may be
 * NULL).  pid: one process, or -1 for every one.  One link detaches its
 * uprobes with one grace period, where perf links wait one each.  Returns
 * the link's fd or a negative errno.  Needs kf_uprobe_multi.
 */
int ks_attach_uprobes(int prog_fd, const char *path, const uint64_t *offs, const uint64_t *refs,
		      const uint64_t *cookies, size_t n, pid_t pid);

/* The same for uretprobes: prog_fd runs when the functions at offs return. */
int ks_attach_uretprobes(int prog_fd, const char *path, const uint64_t *offs,
			 const uint64_t *cookies, size_t n, pid_t pid);

/*
 * Attach prog_fd (a BPF_PROG_TYPE_PERF_EVENT program) to a CPU clock timer
 * on one CPU firing every period_ns.  Returns the attachment's fd, or a
 * negative errno (-ENODEV: the CPU is not online).  group is -1, or a
 * timer group of that CPU (ks_timer_group): the timer then starts when
 * the group does (ks_timer_group_start).  cookie is what
 * bpf_get_attach_cookie() returns in the program (a BPF link's, Linux
 * 5.15; a kernel without perf event links takes 0 only).
 */
int ks_attach_timer(int prog_fd, int cpu, uint64_t period_ns, int group, uint64_t cookie);

/*
 * A group for the timers of one CPU, stopped until ks_timer_group_start:
 * its fd, or a negative errno (-ENODEV: the CPU is not online).  The
 * kernel reschedules every timer of a CPU each time one starts, so
 * starting n timers one by one costs n^2/2 (3,000 timers: 1.2 s here);
 * joining a stopped group costs nothing, and starting it starts them all
 * at once.  Closing it leaves its timers running, each on its own.
 */
int ks_timer_group(int cpu);
int ks_timer_group_start(int group);

/*
 * Attach prog_fd (a BPF_PROG_TYPE_RAW_TRACEPOINT program) to the kernel's
 * tracepoint name ("sys_exit"), without tracefs.  Returns the attachment's
 * fd or a negative errno.
 */
int ks_attach_raw_tp(int prog_fd, const char *name);

/*
 * Attach prog_fd, loaded by ks_prog_load_btf(), to the tracepoint or
 * function it was loaded for (BPF_RAW_TRACEPOINT_OPEN without a name).
 * Returns the attachment's fd or a negative errno.
 */
int ks_attach_btf(int prog_fd);

/*
 * Close n attachments (fds from ks_attach_*), several at once.  Detaching
 * a uprobe waits for an RCU tasks-trace grace period, about 0.1 s; closed
 * one after another, 70 probes would take 7 s.  Closed by concurrent
 * threads, the waits share grace periods.
 */
void ks_detach_all(const int *fds, size_t n);
/*
 * Close n attachments later, on a thread of kernel-shim's own (started at
 * the first call), so that the caller does not wait for the grace periods:
 * a tracer that stays while providers come and go detaches what is gone
 * while it attaches what is new.  ks_detach_wait() returns once every fd
 * handed over so far is closed.
 */
uint64_t ks_detach_later(const int *fds, size_t n);
void ks_detach_wait(void);
/*
 * ks_detach_later() returns a sequence number: once ks_detach_done(seq)
 * is true, every fd handed over by then is closed.
 */
bool ks_detach_done(uint64_t seq);

/* ---------------------------------------------------------------- output buffers */

/*
 * A reader of the per-CPU output buffers behind a BPF_MAP_TYPE_PERF_EVENT_ARRAY
 * map (bpf_perf_event_output() writes them).  sample is called with each
 * record, in this thread, from ks_perfbuf_consume(); data is valid during
 * the call.  lost (may be NULL) is called with the number of records a
 * CPU's buffer had no room for; the kernel reports them only when a later
 * record fits.  Not thread-safe: one thread reads a buffer set.
 */
typedef struct ks_perfbuf ks_perfbuf_t;
typedef void ks_sample_f(void *ctx, int cpu, void *data, uint32_t size);
typedef void ks_lost_f(void *ctx, int cpu, uint64_t n);

/*
 * pages: each CPU's buffer, a power of two of pages.  Fills the map with
 * one perf event per CPU.  0 and *pbp, or a negative errno (*pbp NULL).
 */
int ks_perfbuf_create(int map_fd, size_t pages, ks_sample_f *sample, ks_lost_f *lost, void *ctx,
		      ks_perfbuf_t **pbp);
/* An fd that polls readable when a buffer has data (an epoll fd); owned by pb. */
int ks_perfbuf_fd(const ks_perfbuf_t *pb);
/* Every record in every buffer, now, without waiting: 0 or a negative errno. */
int ks_perfbuf_consume(ks_perfbuf_t *pb);
void ks_perfbuf_free(ks_perfbuf_t *pb); /* accepts NULL */

/* ---------------------------------------------------------------- kernel types */

/*
 * The running kernel's types (vmlinux BTF, /sys/kernel/btf/vmlinux):
 * loaded once by ks_btf_open(), several megabytes until ks_btf_close().
 * Finding a struct or enum by name scans every type, so each name is
 * looked up once per handle and remembered.  Not thread-safe.
 */
typedef struct ks_btf ks_btf_t;

/* 0 and *bp, or a negative errno (-ENOENT: a kernel without BTF). */
int ks_btf_open(ks_btf_t **bp);
void ks_btf_close(ks_btf_t *b); /* accepts NULL */

/*
 * The byte offset in struct sname of a member path: names joined by '.'
 * ("se.sum_exec_runtime"), each optionally indexed ("pids[2]",
 * "numbers[0].nr"); members of anonymous structs and unions are found as
 * C finds them.  The offset, or a negative errno: -ENOENT (no such struct
 * or member), -EINVAL (a bad path, an index outside its array, a member
 * that is a bit-field or that a '.' or '[' cannot enter).
 */
int ks_btf_member_offset(ks_btf_t *b, const char *sname, const char *path);
/* The value of enumerator name of enum ename ("pid_type", "PIDTYPE_PGID"): 0 or -ENOENT. */
int ks_btf_enum_value(ks_btf_t *b, const char *ename, const char *name, int64_t *val);

/*
 * Types one at a time, for a compiler that imports them lazily (D's
 * struct task_struct).  Kinds of ks_btf_type_t; qualifiers (const,
 * volatile, restrict, type tags) are skipped: id is the type under them.
 */
enum {
	KS_BTF_VOID,
	KS_BTF_INT,
	KS_BTF_FLOAT,
	KS_BTF_PTR,
	KS_BTF_ARRAY,
	KS_BTF_STRUCT,
	KS_BTF_UNION,
	KS_BTF_ENUM,
	KS_BTF_TYPEDEF,
	KS_BTF_FUNC
};

typedef struct ks_btf_type {
	int kind;
	uint32_t id;	  /* with qualifiers skipped */
	const char *name; /* NULL when anonymous; borrowed until ks_btf_close */
	uint32_t size;	  /* bytes: int, float, struct, union, enum */
	uint32_t ref;	  /* pointee, element, typedef target */
	uint32_t nelems;  /* arrays (0: a flexible array) */
	uint32_t vlen;	  /* members, enumerators */
	bool is_signed, is_char, is_bool;
	bool is_fwd; /* a struct or union BTF only declares */
} ks_btf_type_t;

typedef struct ks_btf_member {
	const char *name; /* NULL: an anonymous struct or union member */
	uint32_t type;
	uint32_t bitoff;  /* from the start of the struct */
	uint32_t bitsize; /* a bit-field's width, or 0 */
} ks_btf_member_t;

/* The id of a struct, union, enum or typedef (KS_BTF_*) by name, or a negative errno. */
int ks_btf_find(ks_btf_t *b, const char *name, int kind);
/* Type id: 0 and *out, or a negative errno (-ENOTSUP: a kind D has no use for). */
int ks_btf_type(ks_btf_t *b, uint32_t id, ks_btf_type_t *out);
/* Member i of struct or union id (an id ks_btf_type gave): 0 or -EINVAL. */
int ks_btf_member(ks_btf_t *b, uint32_t id, uint32_t i, ks_btf_member_t *out);
/* Enumerator i of enum id: 0 or -EINVAL. */
int ks_btf_enumerator(ks_btf_t *b, uint32_t id, uint32_t i, const char **name, int64_t *val);
/* The enum id that has an enumerator name (its value in *val), or -ENOENT. */
int ks_btf_enumerator_find(ks_btf_t *b, const char *name, int64_t *val);

/*
 * The id of the type named name of BTF kind kind (BTF_KIND_FUNC for a
 * kernel function, BTF_KIND_TYPEDEF for a tracepoint's "btf_trace_NAME"),
 * or a negative errno (-ENOENT: none).
 */
int ks_btf_id(ks_btf_t *b, const char *name, int kind);

/*
 * Every kernel function of vmlinux BTF (its FUNC entries, in id order):
 * f(arg, name, id) for each, until f returns non-zero (then that value).
 * Returns 0, or what f returned.
 */
int ks_btf_funcs(ks_btf_t *b, int (*f)(void *arg, const char *name, uint32_t id), void *arg);

/*
 * The arguments of the function of FUNC id: their number (up to max), and
 * each argument's type written as C ("struct file *", "char *") in
 * types[i] (malloc'd: the caller frees each), and the return type in *ret
 * (malloc'd; NULL ret: not wanted).  -EINVAL for a variadic function or
 * an id that is not a FUNC, -E2BIG for more than max arguments, -ENOMEM.
 */
int ks_btf_func_args(ks_btf_t *b, uint32_t id, char **types, int max, char **ret);

/* ---------------------------------------------------------------- architecture */

/*
 * The offset in struct pt_regs of a register named as in a USDT argument
 * ("%rdi", "edi", "r9d", "al"...), and its width in bytes; -1 if unknown.
 */
int ks_reg_offset(const char *name, int *width);

/*
 * The system calls of the native ABI (x86-64: the "common" and "64" entries
 * of the kernel's syscall_64.tbl, made C at build time): number and name,
 * by number.
 */
typedef struct ks_syscall {
	int ks_nr;
	const char *ks_name;
} ks_syscall_t;
extern const ks_syscall_t ks_syscalls[];
extern const size_t ks_nsyscalls;
/* In struct pt_regs: the offset of system call argument i (0-5), -1 beyond. */
int ks_syscall_arg_offset(int i);
/* In struct pt_regs: the offset of the system call's number as entered (orig_ax). */
int ks_syscall_nr_offset(void);
/*
 * The bit of thread_info.status that marks a compat (ia32) system call in
 * progress (TS_COMPAT): its numbers are another table's.
 */
#define KS_TS_COMPAT 0x0002

/* One decoded x86-64 user-mode instruction (ks_insn_x86_64.c). */
typedef struct ks_insn {
	uint8_t in_len;			/* bytes in all */
	uint8_t in_npfx, in_pfx[14];	/* legacy prefixes, in order */
	uint8_t in_rex;			/* the REX byte, or 0 */
	uint8_t in_vex;			/* 0xc5, 0xc4 (VEX), 0x62 (EVEX), or 0 */
	uint8_t in_map;			/* 0 one-byte, 1 0f, 2 0f 38, 3 0f 3a (VEX/EVEX: mmm) */
	uint8_t in_op;			/* the opcode byte within its map */
	uint8_t in_modrm;		/* when in_has_modrm */
	uint8_t in_imm_off, in_imm_len; /* where the immediate (or rel) is, and its size */
	uint8_t in_rep;			/* 0xf2, 0xf3 or 0 */
	bool in_has_modrm, in_riprel, in_opsize, in_addrsize;
} ks_insn_t;

/*
 * Decode the instruction at p (n bytes readable, at most 15 are read):
 * its length, or -1 when the bytes are not a valid 64-bit instruction or
 * end before it does.
 */
int ks_insn_decode(const uint8_t *p, size_t n, ks_insn_t *in);
int ks_insn_len(const uint8_t *p, size_t n);

/*
 * Would Linux (6.18, arch/x86/kernel/uprobes.c) put a uprobe on this
 * instruction of a 64-bit process?  It refuses es/cs/ss/ds and lock
 * prefixes, opcodes outside its good_insns_64 table, mov to ss, and
 * branches with an operand-size prefix; one refused offset fails a whole
 * uprobe_multi link with ENOTSUPP.
 */
bool ks_uprobe_ok(const ks_insn_t *in);

/* ---------------------------------------------------------------- features */

typedef struct ks_features {
	bool kf_ringbuf;       /* BPF_MAP_TYPE_RINGBUF */
	bool kf_uprobe_pmu;    /* the "uprobe" perf PMU (attaching without tracefs) */
	bool kf_uprobe_refctr; /* ref_ctr_offset in perf_event_attr for uprobes */
	bool kf_uprobe_multi;  /* BPF_TRACE_UPROBE_MULTI links (6.6) */
	bool kf_cookie;	       /* bpf_get_attach_cookie() in kprobe programs (5.15) */
	/*
	 * BTF-typed tracepoints (tp_btf) and kernel functions (fentry,
	 * fexit): a trial program loaded and attached.  When it failed,
	 * kf_*_err is the errno and kf_*_step what failed ("loading an
	 * fentry program"): a kernel may refuse it before any verifier runs
	 * (a BPF LSM policy, lockdown), and the user is told why.
	 */
	bool kf_tp_btf;
	int kf_tp_btf_err;
	const char *kf_tp_btf_step;
	bool kf_fentry;
	int kf_fentry_err;
	const char *kf_fentry_step;
} ks_features_t;

/*
 * Probed once, then cached: thread-safe.  ks_features() leaves the
 * kf_tp_btf* and kf_fentry* fields alone (false, 0, NULL) unless
 * ks_features_tracing() has run: it reads the kernel's BTF and attaches
 * two trial programs (tens of milliseconds), so only what needs them asks.
 */
const ks_features_t *ks_features(void);
const ks_features_t *ks_features_tracing(void);

/*
 * Does the kernel give tracing programs bpf_probe_write_user (copyout)?
 * A kernel in lockdown (integrity or confidentiality) does not, nor
 * does any to a process without CAP_SYS_ADMIN.  Probed
 * on the first call only, since the probe itself makes the kernel log
 * its warning about the helper; then cached: thread-safe.
 */
bool ks_write_user_ok(void);

#endif /* KS_H */
