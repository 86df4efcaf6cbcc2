/*
 * dt_prov_sched.c -- the sched provider (Dynamic Tracing Guide, "sched
 * Provider"): CPU scheduling, on the kernel's raw tracepoints (attached by
 * name, as proc's: the BTF-only sched_entry_tp and sched_exit_tp have no
 * tracefs event but are raw tracepoints all the same):
 *
 *   preempt          sched_entry_tp(preempt), at __schedule's start, in a
 *                    thread that is still runnable (preempted, or
 *                    yielding), not the idle task
 *   sleep            sched_switch(preempt, prev, next, prev_state): prev
 *                    blocks (not preempted, TASK_INTERRUPTIBLE or
 *                    TASK_UNINTERRUPTIBLE)
 *   enqueue          sched_switch: prev goes back to the run queue
 *                    (preempted or still runnable, not idle); and
 *                    sched_wakeup(p), sched_wakeup_new(p): p is put on one
 *   dequeue          sched_switch: next is taken off the run queue (not
 *                    idle)
 *   off-cpu          sched_switch, in prev
 *   on-cpu           sched_exit_tp(is_switch), is_switch: the thread that
 *                    now runs, after the switch (and a new task's first
 *                    run, from schedule_tail)
 *   remain-cpu       sched_exit_tp, !is_switch: __schedule kept current
 *   wakeup           sched_waking(p), in the waker (try_to_wake_up)
 *   change-pri       sched_pi_setprio(p, pi_task): priority inheritance
 *   surrender        sched_set_need_resched_tp(curr, cpu, tif): the
 *                    thread running on a CPU is told to reschedule (the
 *                    tick, a wakeup of a more urgent thread, an IPI)
 *   tick             hrtimer_expire_entry(timer, now) of the scheduler
 *                    tick's timer (its function tick_nohz_handler, whose
 *                    address /proc/kallsyms gives), in the thread it
 *                    interrupted
 *
 * The probes of one program share its guard (a group, dt_provider.h), whose
 * key is the probe's place in probes[]; an event that fires two probes (a
 * switch is an off-cpu, a dequeue and a sleep or enqueue) has one program
 * a probe (kinds[] below), and the kernel runs a tracepoint's programs in
 * the order they were attached: preempt, sleep or enqueue, dequeue,
 * off-cpu, on-cpu, as illumos fires them.  enqueue has two programs, one
 * for each of its kinds: the program's argument specification names the
 * kind (pv_programs), so that the guard and the arguments know it.
 *
 * Arguments: argN are the kernel's native values, which args[] translates
 * (dt_argdesc_t): a thread probe's arg0 = arg1 = the task (struct
 * task_struct *: lwpsinfo_t * and psinfo_t *), enqueue and dequeue's arg2
 * the same task (cpuinfo_t *: the CPU the task is on), enqueue's arg3 0
 * (CFS has no front or back), tick's arg0 = arg1 the current task,
 * change-pri's arg2 the new priority as
 * lwpsinfo_t's pr_pri counts it (139 - the kernel's prio).  Probes without
 * arguments in illumos read 0 but for sleep (prev).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dt_provider.h"

/* The programs: a kind is a tracepoint (or two) and the probes it fires. */
enum { K_ENTRY, K_PREV, K_DEQ, K_OFF, K_EXIT, K_WAKING, K_WAKEUP, K_PI, K_RESCHED, K_TICK, K_N };

static const struct {
	const char *name; /* its group, and its argument specification */
	const char *tp[2];
} kinds[K_N] = {
	[K_ENTRY] = { "sched_entry_tp", { "sched_entry_tp" } },
	[K_PREV] = { "sched_switch/prev", { "sched_switch" } },
	[K_DEQ] = { "sched_switch/dequeue", { "sched_switch" } },
	[K_OFF] = { "sched_switch/off-cpu", { "sched_switch" } },
	[K_EXIT] = { "sched_exit_tp", { "sched_exit_tp" } },
	[K_WAKING] = { "sched_waking", { "sched_waking" } },
	[K_WAKEUP] = { "sched_wakeup", { "sched_wakeup", "sched_wakeup_new" } },
	[K_PI] = { "sched_pi_setprio", { "sched_pi_setprio" } },
	[K_RESCHED] = { "sched_set_need_resched_tp", { "sched_set_need_resched_tp" } },
	[K_TICK] = { "hrtimer_expire_entry", { "hrtimer_expire_entry" } },
};

enum {
	P_PREEMPT,
	P_SLEEP,
	P_ENQUEUE,
	P_DEQUEUE,
	P_OFF_CPU,
	P_ON_CPU,
	P_REMAIN_CPU,
	P_WAKEUP,
	P_CHANGE_PRI,
	P_SURRENDER,
	P_TICK,
	P_N
};

/* illumos' argument types (Guide, "sched Probe Arguments"), from the native task */
static const dt_argdesc_t a_none[1]; /* described: no arguments (D_ARGS_IDX) */
static const dt_argdesc_t a_thread[] = {
	{ "struct task_struct *", "lwpsinfo_t *", 0 },
	{ "struct task_struct *", "psinfo_t *", 1 },
};
static const dt_argdesc_t a_dequeue[] = {
	{ "struct task_struct *", "lwpsinfo_t *", 0 },
	{ "struct task_struct *", "psinfo_t *", 1 },
	{ "struct task_struct *", "cpuinfo_t *", 2 },
};
static const dt_argdesc_t a_enqueue[] = {
	{ "struct task_struct *", "lwpsinfo_t *", 0 },
	{ "struct task_struct *", "psinfo_t *", 1 },
	{ "struct task_struct *", "cpuinfo_t *", 2 },
	{ "int", NULL, 3 },
};
static const dt_argdesc_t a_pri[] = {
	{ "struct task_struct *", "lwpsinfo_t *", 0 },
	{ "struct task_struct *", "psinfo_t *", 1 },
	{ "pri_t", NULL, 2 },
};

static const struct {
	const char *name;
	int kind[2]; /* its programs: kind[1] -1 for none */
	const dt_argdesc_t *args;
	int nargs;
} probes[P_N] = {
	[P_PREEMPT] = { "preempt", { K_ENTRY, -1 }, a_none, 0 },
	[P_SLEEP] = { "sleep", { K_PREV, -1 }, a_none, 0 },
	[P_ENQUEUE] = { "enqueue", { K_PREV, K_WAKEUP }, a_enqueue, 4 },
	[P_DEQUEUE] = { "dequeue", { K_DEQ, -1 }, a_dequeue, 3 },
	[P_OFF_CPU] = { "off-cpu", { K_OFF, -1 }, a_thread, 2 },
	[P_ON_CPU] = { "on-cpu", { K_EXIT, -1 }, a_none, 0 },
	[P_REMAIN_CPU] = { "remain-cpu", { K_EXIT, -1 }, a_none, 0 },
	[P_WAKEUP] = { "wakeup", { K_WAKING, -1 }, a_thread, 2 },
	[P_CHANGE_PRI] = { "change-pri", { K_PI, -1 }, a_pri, 3 },
	[P_SURRENDER] = { "surrender", { K_RESCHED, -1 }, a_thread, 2 },
	[P_TICK] = { "tick", { K_TICK, -1 }, a_thread, 2 },
};

#define TASK_RUNNING	     0x0000 /* task_struct.__state (include/linux/sched.h) */
#define TASK_INTERRUPTIBLE   0x0001
#define TASK_UNINTERRUPTIBLE 0x0002
#define MAX_PRIO_1	     139 /* MAX_PRIO - 1: pr_pri = 139 - prio (procfs.d) */
#define TICK_HANDLER \
	"tick_nohz_handler" /* the scheduler tick's hrtimer (kernel/time/tick-sched.c) */

/* illumos' stab_attr (uts/common/dtrace/sdt_subr.c), the sched provider's */
static const dt_pattr_t attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
};

static int probe_of(const dtrace_hdl_t *dtp, size_t p)
{
	return dtp->dt_pinfo[p].pi_sysnr;
}

/* The kind of program being made: its argument specification's, else the probe's first. */
static int kind_of(const dt_argreq_t *rq)
{
	if (rq->ar_argspec != NULL)
		for (int k = 0; k < K_N; k++)
			if (strcmp(rq->ar_argspec, kinds[k].name) == 0)
				return k;
	return probes[probe_of(rq->ar_dtp, rq->ar_probe)].kind[0];
}

/* Like illumos (module unix), the module is the kernel's; the function is empty. */
static int populate(dtrace_hdl_t *dtp, dt_ptab_t *t)
{
	dt_pinfo_t pi = { .pi_prov = &dt_prov_sched, .pi_kind = DT_PK_SCHED, .pi_attr = &attr };

	(void)dtp;
	for (int i = 0; i < P_N; i++) {
		pi.pi_sysnr = i;
		pi.pi_args = probes[i].args;
		pi.pi_nargs = probes[i].nargs;
		if (dt_ptab_add(t, "sched", "vmlinux", "", probes[i].name, &pi))
			return 1;
	}
	return 0;
}

/* A program of each kind the probe has, named by its argument specification. */
static int programs(dtrace_hdl_t *dtp, size_t p, dt_progspec_f *add, void *arg)
{
	const int *k = probes[probe_of(dtp, p)].kind;

	for (int i = 0; i < 2 && k[i] >= 0; i++)
		if (add(arg, kinds[k[i]].name) != 0)
			return -1;
	return 0;
}

static void progtype(const dt_pinfo_t *pi, enum bpf_prog_type *type, uint32_t *attach_type,
		     uint32_t *btf_id)
{
	(void)pi, (void)btf_id;
	*type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	*attach_type = 0;
}

/* The group of the probe's first kind (the argument specification tells its programs apart). */
static const char *group(dtrace_hdl_t *dtp, size_t p, uint32_t *key)
{
	int which = probe_of(dtp, p);

	*key = (uint32_t)which;
	return kinds[probes[which].kind[0]].name;
}

/* r0 = the kernel's 4 or 8 bytes at r3 + the offset toff, through slot; a failed read: fail. */
static void read_kernel(dt_frag_t *o, int toff, int size, int slot, int fail)
{
	dt_frag_emit(o, KS_ALU64_IMM(BPF_ADD, BPF_REG_3, 0));
	dt_frag_reloc(o, DT_RL_TOFF, (uint32_t)toff);
	dt_frag_load_kernel(o, size, (int16_t)slot, fail);
}

/* The task in the tracepoint's argument k is an idle task (pid 0): jump to lfail. */
static void skip_idle(dt_frag_t *o, int k, int lfail)
{
	dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_6, 8 * k));
	read_kernel(o, DT_TOFF_PID, 4, -16, lfail);
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0), lfail);
}

/* The address of the kernel's symbol name (/proc/kallsyms), or 0: absent, or hidden. */
static uint64_t ksym(const char *name)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], sym[256], type;
	unsigned long long addr = 0, a;

	if (f == NULL)
		return 0;
	while (addr == 0 && fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) == 3 && strcmp(sym, name) == 0)
			addr = a;
	fclose(f);
	return addr;
}

/* r1 = sched_switch's prev_state; jump to lrunnable when prev stays runnable. */
static void prev_runnable(dt_frag_t *o, int lrunnable)
{
	dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_6, 0)); /* preempt */
	dt_frag_emit(o, KS_ALU64_IMM(BPF_AND, BPF_REG_1, 0xff));
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JNE, BPF_REG_1, 0, 0), lrunnable);
	dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_6, 24)); /* prev_state */
	dt_frag_emit(o, KS_ALU64_IMM(BPF_LSH, BPF_REG_1, 32));
	dt_frag_emit(o, KS_ALU64_IMM(BPF_RSH, BPF_REG_1, 32));
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_1, TASK_RUNNING, 0), lrunnable);
}

/*
 * The guard: from the tracepoint's arguments (the context, in r6), r0 =
 * the probe that fires, or a jump to ar_lfault.
 */
static int guard(const dt_argreq_t *rq)
{
	dt_frag_t *o = rq->ar_out;
	int lfail = rq->ar_lfault;

	switch (kind_of(rq)) {
	case K_ENTRY: { /* (preempt): a runnable thread that is not idle */
		int lyes = dt_frag_label(o);

		dt_frag_emit(o, KS_CALL(BPF_FUNC_get_current_pid_tgid));
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0), lfail);
		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_6, 0));
		dt_frag_emit(o, KS_ALU64_IMM(BPF_AND, BPF_REG_1, 0xff));
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JNE, BPF_REG_1, 0, 0), lyes);
		dt_frag_emit(o, KS_CALL(BPF_FUNC_get_current_task));
		dt_frag_emit(o, KS_MOV64_REG(BPF_REG_3, BPF_REG_0));
		read_kernel(o, DT_TOFF_STATE, 4, -16, lfail);
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JNE, BPF_REG_0, TASK_RUNNING, 0), lfail);
		dt_frag_place(o, lyes);
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_PREEMPT));
		break;
	}
	case K_PREV: { /* (preempt, prev, next, prev_state): sleep, or enqueue of prev */
		int lrun = dt_frag_label(o), ldone = dt_frag_label(o);

		prev_runnable(o, lrun);
		dt_frag_emit(
		    o, KS_ALU64_IMM(BPF_AND, BPF_REG_1, TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE));
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_1, 0, 0), lfail);
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_SLEEP));
		dt_frag_emit_to(o, KS_JA(0), ldone);
		dt_frag_place(o, lrun);
		skip_idle(o, 1, lfail);
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_ENQUEUE));
		dt_frag_place(o, ldone);
		break;
	}
	case K_DEQ:
		skip_idle(o, 2, lfail);
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_DEQUEUE));
		break;
	case K_OFF: dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_OFF_CPU)); break;
	case K_EXIT: { /* (is_switch) */
		int ldone = dt_frag_label(o);

		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_6, 0));
		dt_frag_emit(o, KS_ALU64_IMM(BPF_AND, BPF_REG_1, 0xff));
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_ON_CPU));
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JNE, BPF_REG_1, 0, 0), ldone);
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_REMAIN_CPU));
		dt_frag_place(o, ldone);
		break;
	}
	case K_WAKING: dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_WAKEUP)); break;
	case K_WAKEUP: dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_ENQUEUE)); break;
	case K_PI: dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_CHANGE_PRI)); break;
	case K_RESCHED: dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_SURRENDER)); break;
	case K_TICK: { /* (hrtimer, now): the scheduler tick's timer */
		uint64_t tick = ksym(TICK_HANDLER);
		struct bpf_insn ld[2] = { KS_LD_IMM64(BPF_REG_1, tick) };
		const dtrace_probedesc_t *pd = &rq->ar_dtp->dt_probes[rq->ar_probe];

		if (tick == 0)
			return dt_set_errmsg(
			    rq->ar_dtp, EDT_ENABLING,
			    "cannot enable %s:%s:%s:%s: the scheduler tick's "
			    "handler (%s) is not in /proc/kallsyms, or its address "
			    "is hidden (kernel.kptr_restrict)",
			    pd->dtpd_provider, pd->dtpd_mod, pd->dtpd_func, pd->dtpd_name,
			    TICK_HANDLER);
		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_6, 0));
		read_kernel(o, DT_TOFF_HRTIMER_FN, 8, -16, lfail);
		dt_frag_emit(o, ld[0]);
		dt_frag_emit(o, ld[1]);
		dt_frag_emit_to(o, KS_JMP_REG(BPF_JNE, BPF_REG_0, BPF_REG_1, 0), lfail);
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_TICK));
		break;
	}
	}
	return 0;
}

/* r0 = the tracepoint's argument k (the context is in r6). */
static void ctx_arg(dt_frag_t *o, int k)
{
	dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_6, 8 * k));
}

/*
 * change-pri's new priority, as rt_mutex_setprio computes it from (p,
 * pi_task): pi_task ? min(pi_task->prio, p->normal_prio) :
 * p->normal_prio; then 139 - it, as pr_pri counts.
 */
static void new_pri(dt_frag_t *o)
{
	int ldone = dt_frag_label(o);

	/* both reads in the temporary's two halves: normal_prio at -4, pi_task's prio at -8 */
	dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_6, 0));
	read_kernel(o, DT_TOFF_NORMAL_PRIO, 4, DT_SLOT_TMP + 4, -1);
	dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_6, 8));
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_3, 0, 0), ldone);
	read_kernel(o, DT_TOFF_PRIO, 4, DT_SLOT_TMP, -1);
	dt_frag_emit(o, KS_LDX_MEM(BPF_W, BPF_REG_1, BPF_REG_10, DT_SLOT_TMP + 4));
	dt_frag_emit_to(o, KS_JMP_REG(BPF_JSLT, BPF_REG_0, BPF_REG_1, 0), ldone);
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_0, BPF_REG_1));
	dt_frag_place(o, ldone);
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_1, BPF_REG_0));
	dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, MAX_PRIO_1));
	dt_frag_emit(o, KS_ALU64_REG(BPF_SUB, BPF_REG_0, BPF_REG_1));
}

/* Argument i, the same code for every probe of the program (the head comment). */
static int arg(const dt_argreq_t *rq, int i)
{
	dt_frag_t *o = rq->ar_out;

	switch (kind_of(rq) * 8 + (i < 8 ? i : 7)) {
	case K_PREV * 8 + 0:
	case K_PREV * 8 + 1:
	case K_PREV * 8 + 2: ctx_arg(o, 1); return 0;
	case K_DEQ * 8 + 0:
	case K_DEQ * 8 + 1:
	case K_DEQ * 8 + 2:
	case K_OFF * 8 + 0:
	case K_OFF * 8 + 1: ctx_arg(o, 2); return 0;
	case K_WAKING * 8 + 0:
	case K_WAKING * 8 + 1:
	case K_WAKEUP * 8 + 0:
	case K_WAKEUP * 8 + 1:
	case K_WAKEUP * 8 + 2:
	case K_PI * 8 + 0:
	case K_PI * 8 + 1:
	case K_RESCHED * 8 + 0:
	case K_RESCHED * 8 + 1: ctx_arg(o, 0); return 0;
	case K_PI * 8 + 2: new_pri(o); return 0;
	case K_TICK * 8 + 0:
	case K_TICK * 8 + 1: dt_frag_emit(o, KS_CALL(BPF_FUNC_get_current_task)); return 0;
	default: dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, 0)); return 0;
	}
}

/* The program of kind argspec, on its tracepoints. */
static int attach(dtrace_hdl_t *dtp, size_t p, const char *argspec, int fd, uint32_t attach_type,
		  int ncpus, dt_links_t *links)
{
	int k = probes[probe_of(dtp, p)].kind[0];

	(void)attach_type, (void)ncpus;
	for (int j = 0; argspec != NULL && j < K_N; j++)
		if (strcmp(argspec, kinds[j].name) == 0)
			k = j;
	for (int t = 0; t < 2 && kinds[k].tp[t] != NULL; t++)
		if (dt_attach_raw_tp(dtp, p, fd, kinds[k].tp[t], links) != 0)
			return -1;
	return 0;
}

const dt_provimpl_t dt_prov_sched = {
	.pv_name = "sched",
	.pv_populate = populate,
	.pv_programs = programs,
	.pv_progtype = progtype,
	.pv_arg = arg,
	.pv_attach = attach,
	.pv_group = group,
	.pv_guard = guard,
	.pv_dlib = true,
};
