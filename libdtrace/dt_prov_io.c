/*
 * dt_prov_io.c -- the io provider (Dynamic Tracing Guide, "io Provider"):
 * block device requests and the waits for them, on the kernel's raw
 * tracepoints:
 *
 *   start        block_rq_issue(rq): the request is handed to the driver
 *                (blk_mq_start_request)
 *   done         block_rq_complete(rq, error, nr_bytes), when nr_bytes
 *                covers what is left of the request (its last part: a
 *                driver may complete a request in parts, each firing the
 *                tracepoint) and the request was started (a flush
 *                sequence completes the request that asked for it,
 *                which is never issued: no start, no done)
 *   wait-start   sched_switch(preempt, prev, next, prev_state), when prev
 *                blocks (not preempted, prev_state not runnable) in an I/O
 *                wait (task_struct.in_iowait: io_schedule() and its
 *                kin); in the waiting thread
 *   wait-done    sched_exit_tp(is_switch), when the thread that comes on
 *                CPU is runnable (it was woken) and still in its I/O wait
 *                (in_iowait is cleared only after schedule() returns)
 *
 * Linux waits on pages and bios, not on a request: wait-start and
 * wait-done describe no request (arg0 is NULL, and the translators give
 * "<none>" and zeros).
 *
 * Each probe has its own tracepoint: a group of one (its guard is the
 * condition above, before the prologue).  The kernel offsets the guards
 * read (request.__data_len, task_struct.__state and in_iowait, a
 * bit-field) come from the kernel's BTF when the program is linked.
 *
 * Arguments: arg0 is the struct request * (start, done; 0 for the waits),
 * from which args[0] (bufinfo_t *), args[1] (devinfo_t *) and args[2]
 * (fileinfo_t *) are translated, as illumos' sdt maps all three from its
 * struct buf * (io.d has the translators).  done's arg1 is the kernel's
 * blk_status_t for the request (0: success, BLK_STS_IOERR 10...), which
 * the translators cannot see (b_error is 0).  The rest are 0.
 */
#include <errno.h>
#include <string.h>

#include "dt_provider.h"

enum { P_START, P_DONE, P_WAIT_START, P_WAIT_DONE, P_N };

static const struct {
	const char *name;
	const char *tracepoint;
	const char *group;
} probes[P_N] = {
	[P_START] = { "start", "block_rq_issue", "block_rq_issue" },
	[P_DONE] = { "done", "block_rq_complete", "block_rq_complete" },
	[P_WAIT_START] = { "wait-start", "sched_switch", "sched_switch/io" },
	[P_WAIT_DONE] = { "wait-done", "sched_exit_tp", "sched_exit_tp/io" },
};

/* illumos' sdt_args for io: all three translated from the one buffer (native 0) */
static const dt_argdesc_t args[] = {
	{ "struct request *", "bufinfo_t *", 0 },
	{ "struct request *", "devinfo_t *", 0 },
	{ "struct request *", "fileinfo_t *", 0 },
};

/* illumos' stab_attr (uts/common/dtrace/sdt_subr.c), the io provider's */
static const dt_pattr_t attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
};

static int which(const dt_argreq_t *rq)
{
	return rq->ar_dtp->dt_pinfo[rq->ar_probe].pi_sysnr;
}

/*
 * As proc: the module is the kernel's, the function empty (the events come
 * from tracepoints, not from one function).  Listed whether or not the
 * system has a block device.
 */
static int populate(dtrace_hdl_t *dtp, dt_ptab_t *t)
{
	dt_pinfo_t pi = { .pi_prov = &dt_prov_io,
			  .pi_attr = &attr,
			  .pi_args = args,
			  .pi_nargs = (int)(sizeof(args) / sizeof(args[0])) };

	(void)dtp;
	for (int i = 0; i < P_N; i++) {
		pi.pi_sysnr = i;
		if (dt_ptab_add(t, "io", "vmlinux", "", probes[i].name, &pi))
			return 1;
	}
	return 0;
}

static void progtype(const dt_pinfo_t *pi, enum bpf_prog_type *type, uint32_t *attach_type,
		     uint32_t *btf_id)
{
	(void)pi, (void)btf_id;
	*type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	*attach_type = 0;
}

/* A group of one a probe (its tracepoint's); the key is the probe. */
static const char *group(dtrace_hdl_t *dtp, size_t p, uint32_t *key)
{
	int i = dtp->dt_pinfo[p].pi_sysnr;

	*key = (uint32_t)i;
	return probes[i].group;
}

/*
 * The bit offset of member name in struct sname (a bit-field's too, which
 * ks_btf_member_offset refuses), from the kernel's BTF: >= 0, or -1 with
 * the handle's error.
 */
static long member_bits(dtrace_hdl_t *dtp, const char *sname, const char *name)
{
	ks_btf_t *b = dt_btf(dtp);
	ks_btf_type_t t;
	ks_btf_member_t m;
	int id;

	if (b != NULL && (id = ks_btf_find(b, sname, KS_BTF_STRUCT)) > 0 &&
	    ks_btf_type(b, (uint32_t)id, &t) == 0) {
		for (uint32_t i = 0; i < t.vlen; i++)
			if (ks_btf_member(b, t.id, i, &m) == 0 && m.name != NULL &&
			    strcmp(m.name, name) == 0)
				return (long)m.bitoff;
	}
	return dt_set_errmsg(dtp, EDT_ENABLING,
			     "io: the kernel's BTF has no struct %s member %s (or no BTF)", sname,
			     name);
}

/*
 * r0 = the 4 bytes at (r3 + off) in the kernel, through the stack's
 * temporary; a failed read jumps to fail.
 */
static void read4(dt_frag_t *o, long off, int fail)
{
	dt_frag_emit(o, KS_ALU64_IMM(BPF_ADD, BPF_REG_3, (int32_t)off));
	dt_frag_load_kernel(o, 4, DT_SLOT_TMP, fail);
}

/* Jump to fail unless the task at r3 is in an I/O wait (in_iowait, bit bits of it). */
static void need_iowait(dt_frag_t *o, long bits, int fail)
{
	read4(o, bits / 8, fail);
	if (bits % 8 != 0)
		dt_frag_emit(o, KS_ALU64_IMM(BPF_RSH, BPF_REG_0, (int32_t)(bits % 8)));
	dt_frag_emit(o, KS_ALU64_IMM(BPF_AND, BPF_REG_0, 1));
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0), fail);
}

/*
 * The guard: from the tracepoint's arguments (the context, in r6), r0 =
 * the probe (its key), or a jump to ar_lfault when the event is not one.
 */
static int guard(const dt_argreq_t *rq)
{
	dtrace_hdl_t *dtp = rq->ar_dtp;
	dt_frag_t *o = rq->ar_out;
	int lfail = rq->ar_lfault, w = which(rq);
	long len, iowait, state;
	int64_t idle;

	switch (w) {
	case P_START: break;
	case P_DONE:
		/*
		 * (rq, error, nr_bytes): the last part when nr_bytes >=
		 * rq->__data_len, of a request that was started (state not
		 * MQ_RQ_IDLE: a flush sequence ends the request that asked
		 * for the flush without ever issuing it)
		 */
		if ((len = member_bits(dtp, "request", "__data_len")) < 0 ||
		    (state = member_bits(dtp, "request", "state")) < 0)
			return -1;
		if (dt_btf(dtp) == NULL ||
		    ks_btf_enum_value(dt_btf(dtp), "mq_rq_state", "MQ_RQ_IDLE", &idle) != 0)
			return dt_set_errmsg(dtp, EDT_ENABLING,
					     "io: the kernel's BTF has no enum mq_rq_state");
		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_6, 0));
		read4(o, state / 8, lfail);
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_0, (int32_t)idle, 0), lfail);
		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_6, 0));
		read4(o, len / 8, lfail);
		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_6, 16));
		dt_frag_emit(o, KS_ALU64_IMM(BPF_AND, BPF_REG_1, 0xffffffff));
		dt_frag_emit_to(o, KS_JMP_REG(BPF_JGT, BPF_REG_0, BPF_REG_1, 0), lfail);
		break;
	case P_WAIT_START: /* (preempt, prev, next, prev_state) */
		if ((iowait = member_bits(dtp, "task_struct", "in_iowait")) < 0)
			return -1;
		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_6, 0));
		dt_frag_emit(o, KS_ALU64_IMM(BPF_AND, BPF_REG_1, 0xff));
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JNE, BPF_REG_1, 0, 0), lfail);
		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_6, 24));
		dt_frag_emit(o, KS_ALU64_IMM(BPF_AND, BPF_REG_1, 0xffffffff));
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_1, 0, 0), lfail);
		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_6, 8));
		need_iowait(o, iowait, lfail);
		break;
	case P_WAIT_DONE: /* (is_switch), in the thread now on CPU */
		if ((iowait = member_bits(dtp, "task_struct", "in_iowait")) < 0 ||
		    (state = member_bits(dtp, "task_struct", "__state")) < 0)
			return -1;
		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_6, 0));
		dt_frag_emit(o, KS_ALU64_IMM(BPF_AND, BPF_REG_1, 0xff));
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_1, 0, 0), lfail);
		dt_frag_emit(o, KS_CALL(BPF_FUNC_get_current_task));
		dt_frag_emit(o, KS_MOV64_REG(BPF_REG_7, BPF_REG_0));
		/* runnable again: woken, not back from a preemption in the middle of the wait */
		dt_frag_emit(o, KS_MOV64_REG(BPF_REG_3, BPF_REG_7));
		read4(o, state / 8, lfail);
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 0), lfail);
		dt_frag_emit(o, KS_MOV64_REG(BPF_REG_3, BPF_REG_7));
		need_iowait(o, iowait, lfail);
		break;
	}
	dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, w));
	return 0;
}

/* arg0 the request (start, done), done's arg1 its blk_status_t; the rest 0. */
static int arg(const dt_argreq_t *rq, int i)
{
	dt_frag_t *o = rq->ar_out;
	int w = which(rq);

	if ((i == 0 && (w == P_START || w == P_DONE)) || (i == 1 && w == P_DONE)) {
		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_6, 8 * i));
		if (i == 1)
			dt_frag_emit(o, KS_ALU64_IMM(BPF_AND, BPF_REG_0, 0xff));
	} else {
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, 0));
	}
	return 0;
}

static int attach(dtrace_hdl_t *dtp, size_t p, const char *argspec, int fd, uint32_t attach_type,
		  int ncpus, dt_links_t *links)
{
	(void)argspec, (void)attach_type, (void)ncpus;
	return dt_attach_raw_tp(dtp, p, fd, probes[dtp->dt_pinfo[p].pi_sysnr].tracepoint, links);
}

const dt_provimpl_t dt_prov_io = {
	.pv_name = "io",
	.pv_dlib = true,
	.pv_populate = populate,
	.pv_progtype = progtype,
	.pv_arg = arg,
	.pv_attach = attach,
	.pv_group = group,
	.pv_guard = guard,
};
