/*
 * dt_prov_proc.c -- the proc provider (Dynamic Tracing Guide, "proc
 * Provider"): process and thread creation, exec, exit and signals, on the
 * kernel's raw tracepoints (there are no fentry probes on this kernel, and
 * raw tracepoints need no BTF ids to attach):
 *
 *   lwp-create, create       sched_process_fork(parent, child): create
 *                            too when the child leads its thread group
 *   exec                     sys_enter of execve or execveat
 *   exec-failure             sys_exit of execve or execveat, ret < 0
 *   exec-success             sched_process_exec, in the new image
 *   lwp-exit, exit           sched_process_exit(task, group_dead): exit
 *                            too when group_dead (the last thread)
 *   start, lwp-start         sys_exit of clone, fork, vfork or clone3 with
 *                            0: the child's first return to user mode;
 *                            start only in a group leader
 *   signal-send              signal_generate, unless the signal is ignored
 *   signal-handle            signal_deliver
 *   signal-clear             sys_exit of rt_sigtimedwait, ret > 0
 *
 * The probes of one tracepoint share its program (a group, dt_provider.h):
 * the guard tells which probe an event is (its key is the probe's place in
 * probes[] below), so that proc::: costs one program per tracepoint (two
 * where an event fires both an lwp probe and a process probe: groups[]),
 * and a tracepoint none of whose probes is enabled has none.  Kernel
 * threads' creation and exit fire nothing.  Compat (ia32)
 * system calls, whose numbers are another table's, fire nothing.
 *
 * Arguments, until translators type args[]: the kernel's native values.
 * create and lwp-create: arg0 = arg1 = the child's struct task_struct *;
 * exec: arg0 = the path (a user address: copyinstr(arg0)); exec-failure:
 * arg0 = the errno; exit: arg0 = CLD_EXITED 1, CLD_KILLED 2 or CLD_DUMPED
 * 3; signal-send: arg0 = arg1 = the target's struct task_struct *, arg2 =
 * the signal; signal-handle: arg0 = the signal, arg1 = the struct
 * kernel_siginfo *, arg2 = the handler; signal-clear: arg0 = the signal.
 * The rest are 0.  A probe's arguments are the same code for every probe
 * of its tracepoint, so exit's arg0 is also lwp-exit's, and the sys_exit
 * probes' arg0 is the absolute value of the return value.
 */
#include <errno.h>
#include <string.h>

#include "dt_provider.h"

enum { SRC_FORK, SRC_EXIT, SRC_EXEC, SRC_SYS_ENTER, SRC_SYS_EXIT, SRC_SIGGEN, SRC_SIGDLV, SRC_N };

static const char *const tracepoints[SRC_N] = {
	[SRC_FORK] = "sched_process_fork", [SRC_EXIT] = "sched_process_exit",
	[SRC_EXEC] = "sched_process_exec", [SRC_SYS_ENTER] = "sys_enter",
	[SRC_SYS_EXIT] = "sys_exit",	   [SRC_SIGGEN] = "signal_generate",
	[SRC_SIGDLV] = "signal_deliver",
};

/*
 * The programs: one a tracepoint, and a second one for the lwp probes of
 * fork, exit and a fork's return, which fire for the same events as their
 * process probes (a process's first thread is an lwp too: illumos fires
 * lwp-create then create, start then lwp-start, lwp-exit then exit).
 * The kernel runs a tracepoint's programs in the order they were
 * attached, which is the order of their first probes here.
 */
enum {
	G_FORK,
	G_FORK_LWP,
	G_EXIT,
	G_EXIT_LWP,
	G_EXEC,
	G_SYS_ENTER,
	G_SYS_EXIT,
	G_SYS_EXIT_LWP,
	G_SIGGEN,
	G_SIGDLV
};

static const struct {
	const char *name;
	int src;
} groups[] = {
	[G_FORK] = { "sched_process_fork", SRC_FORK },
	[G_FORK_LWP] = { "sched_process_fork/lwp", SRC_FORK },
	[G_EXIT] = { "sched_process_exit", SRC_EXIT },
	[G_EXIT_LWP] = { "sched_process_exit/lwp", SRC_EXIT },
	[G_EXEC] = { "sched_process_exec", SRC_EXEC },
	[G_SYS_ENTER] = { "sys_enter", SRC_SYS_ENTER },
	[G_SYS_EXIT] = { "sys_exit", SRC_SYS_EXIT },
	[G_SYS_EXIT_LWP] = { "sys_exit/lwp", SRC_SYS_EXIT },
	[G_SIGGEN] = { "signal_generate", SRC_SIGGEN },
	[G_SIGDLV] = { "signal_deliver", SRC_SIGDLV },
};

/* The probes, in this order (see groups[]); a probe's key in its group is its place here. */
enum {
	P_EXEC,
	P_EXEC_FAILURE,
	P_EXEC_SUCCESS,
	P_LWP_CREATE,
	P_CREATE,
	P_START,
	P_LWP_START,
	P_LWP_EXIT,
	P_EXIT,
	P_SIGNAL_SEND,
	P_SIGNAL_HANDLE,
	P_SIGNAL_CLEAR,
	P_N
};

/*
 * args[] as illumos types them (the Guide's proc table), each made of the
 * native argument mapping names: the tasks through procfs.d's
 * translators, the siginfo through signal.d's.
 */
static const dt_argdesc_t a_none[1]; /* described: no arguments (D_ARGS_IDX) */
static const dt_argdesc_t a_exec[] = { { "char *", "string", 0 } };
static const dt_argdesc_t a_int[] = { { "int", NULL, 0 } };
static const dt_argdesc_t a_create[] = { { "struct task_struct *", "psinfo_t *", 0 } };
static const dt_argdesc_t a_lwp[] = { { "struct task_struct *", "lwpsinfo_t *", 0 },
				      { "struct task_struct *", "psinfo_t *", 1 } };
static const dt_argdesc_t a_send[] = { { "struct task_struct *", "lwpsinfo_t *", 0 },
				       { "struct task_struct *", "psinfo_t *", 1 },
				       { "int", NULL, 2 } };
static const dt_argdesc_t a_handle[] = { { "int", NULL, 0 },
					 { "struct kernel_siginfo *", "siginfo_t *", 1 },
					 { "void (*)(void)", NULL, 2 } };

#define ARGS(a) a, (int)(sizeof(a) / sizeof(a[0]))

static const struct {
	const char *name;
	int group;
	const dt_argdesc_t *args;
	int nargs;
} probes[P_N] = {
	[P_EXEC] = { "exec", G_SYS_ENTER, ARGS(a_exec) },
	[P_EXEC_FAILURE] = { "exec-failure", G_SYS_EXIT, ARGS(a_int) },
	[P_EXEC_SUCCESS] = { "exec-success", G_EXEC, a_none, 0 },
	[P_LWP_CREATE] = { "lwp-create", G_FORK_LWP, ARGS(a_lwp) },
	[P_CREATE] = { "create", G_FORK, ARGS(a_create) },
	[P_START] = { "start", G_SYS_EXIT, a_none, 0 },
	[P_LWP_START] = { "lwp-start", G_SYS_EXIT_LWP, a_none, 0 },
	[P_LWP_EXIT] = { "lwp-exit", G_EXIT_LWP, a_none, 0 },
	[P_EXIT] = { "exit", G_EXIT, ARGS(a_int) },
	[P_SIGNAL_SEND] = { "signal-send", G_SIGGEN, ARGS(a_send) },
	[P_SIGNAL_HANDLE] = { "signal-handle", G_SIGDLV, ARGS(a_handle) },
	[P_SIGNAL_CLEAR] = { "signal-clear", G_SYS_EXIT, ARGS(a_int) },
};

/* x86-64 system call numbers (kernel-shim/syscall_64.tbl) */
enum {
	NR_CLONE = 56,
	NR_FORK = 57,
	NR_VFORK = 58,
	NR_EXECVE = 59,
	NR_RT_SIGTIMEDWAIT = 128,
	NR_EXECVEAT = 322,
	NR_CLONE3 = 435,
};

#define TRACE_SIGNAL_IGNORED 1 /* signal_generate's result (include/trace/events/signal.h) */
#define PF_KTHREAD	     0x00200000 /* task_struct.flags: a kernel thread (include/linux/sched.h) */

/* illumos' stab_attr (uts/common/dtrace/sdt_subr.c), the proc provider's */
static const dt_pattr_t attr = {
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_PRIVATE, DTRACE_STABILITY_PRIVATE, DTRACE_CLASS_UNKNOWN },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
	{ DTRACE_STABILITY_EVOLVING, DTRACE_STABILITY_EVOLVING, DTRACE_CLASS_ISA },
};

static int group_of(const dt_argreq_t *rq)
{
	return probes[rq->ar_dtp->dt_pinfo[rq->ar_probe].pi_sysnr].group;
}

static int source(const dt_argreq_t *rq)
{
	return groups[group_of(rq)].src;
}

/*
 * Like illumos (module genunix), the module is the kernel's; the function
 * is empty, as the events come from tracepoints rather than functions.
 */
static int populate(dtrace_hdl_t *dtp, dt_ptab_t *t)
{
	dt_pinfo_t pi = { .pi_prov = &dt_prov_proc, .pi_kind = DT_PK_PROC, .pi_attr = &attr };

	(void)dtp;
	for (int i = 0; i < P_N; i++) {
		pi.pi_sysnr = i;
		pi.pi_args = probes[i].args;
		pi.pi_nargs = probes[i].nargs;
		if (dt_ptab_add(t, "proc", "vmlinux", "", probes[i].name, &pi))
			return 1;
	}
	return 0;
}

/* One group a tracepoint; the key is the probe. */
static const char *group(dtrace_hdl_t *dtp, size_t p, uint32_t *key)
{
	int which = dtp->dt_pinfo[p].pi_sysnr;

	*key = (uint32_t)which;
	return groups[probes[which].group].name;
}

/* Kernel threads are no process's: the task (tracepoint argument k) is one: jump to lfail. */
static void skip_kthread(dt_frag_t *o, int k, int lfail)
{
	dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_6, 8 * k));
	dt_frag_read_kernel(o, DT_TOFF_FLAGS, 4, DT_SLOT_GUARD, lfail);
	dt_frag_emit(o, KS_ALU64_IMM(BPF_AND, BPF_REG_0, PF_KTHREAD));
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JNE, BPF_REG_0, 0, 0), lfail);
}

/*
 * A fork's return in the child (ret 0 from clone, fork, vfork or clone3),
 * the number in r0 and the return value in r1: start when lwp is false
 * and the thread leads its process (r0 = P_START), else lwp-start for
 * every new thread.
 */
static void fork_return(dt_frag_t *o, bool lwp, int lstart, int lfail, int ldone)
{
	dt_frag_place(o, lstart);
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JNE, BPF_REG_1, 0, 0), lfail);
	if (lwp) {
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_LWP_START));
		return;
	}
	dt_frag_emit(o, KS_CALL(BPF_FUNC_get_current_pid_tgid));
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_1, BPF_REG_0));
	dt_frag_emit(o, KS_ALU64_IMM(BPF_LSH, BPF_REG_1, 32));
	dt_frag_emit(o, KS_ALU64_IMM(BPF_RSH, BPF_REG_1, 32)); /* the thread */
	dt_frag_emit(o, KS_ALU64_IMM(BPF_RSH, BPF_REG_0, 32)); /* the process */
	dt_frag_emit_to(o, KS_JMP_REG(BPF_JNE, BPF_REG_0, BPF_REG_1, 0), lfail);
	dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_START));
	dt_frag_emit_to(o, KS_JA(0), ldone);
}

/* The sys_exit guards: exec-failure, start, signal-clear; or lwp-start. */
static void guard_sys_exit(dt_frag_t *o, bool lwp, int lfail)
{
	int lexec = dt_frag_label(o), lclear = dt_frag_label(o), lstart = dt_frag_label(o);
	int ldone = dt_frag_label(o);

	dt_frag_syscall_nr(o, false, lfail);
	dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_6, 8)); /* ret */
	if (!lwp) {
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_0, NR_EXECVE, 0), lexec);
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_0, NR_EXECVEAT, 0), lexec);
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_0, NR_RT_SIGTIMEDWAIT, 0), lclear);
	}
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_0, NR_CLONE, 0), lstart);
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_0, NR_FORK, 0), lstart);
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_0, NR_VFORK, 0), lstart);
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_0, NR_CLONE3, 0), lstart);
	dt_frag_emit_to(o, KS_JA(0), lfail);

	if (!lwp) {
		dt_frag_place(o, lexec);
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JSGE, BPF_REG_1, 0, 0), lfail);
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_EXEC_FAILURE));
		dt_frag_emit_to(o, KS_JA(0), ldone);

		dt_frag_place(o, lclear);
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JSLE, BPF_REG_1, 0, 0), lfail);
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_SIGNAL_CLEAR));
		dt_frag_emit_to(o, KS_JA(0), ldone);
	}
	fork_return(o, lwp, lstart, lfail, ldone);
	dt_frag_place(o, ldone);
}

/*
 * The guard: from the tracepoint's arguments (the context, in r6), r0 =
 * the probe that fires, or a jump to ar_lfault.
 */
static int guard(const dt_argreq_t *rq)
{
	dt_frag_t *o = rq->ar_out;
	int lfail = rq->ar_lfault;

	switch (group_of(rq)) {
	case G_FORK: /* (parent, child): a process when child->pid == child->tgid */
		skip_kthread(o, 1, lfail);
		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_6, 8));
		dt_frag_read_kernel(o, DT_TOFF_PID, 4, DT_SLOT_GUARD, lfail);
		dt_frag_emit(o, KS_MOV64_REG(BPF_REG_7, BPF_REG_0));
		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_6, 8));
		dt_frag_read_kernel(o, DT_TOFF_TGID, 4, DT_SLOT_GUARD, lfail);
		dt_frag_emit_to(o, KS_JMP_REG(BPF_JNE, BPF_REG_0, BPF_REG_7, 0), lfail);
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_CREATE));
		break;
	case G_FORK_LWP:
		skip_kthread(o, 1, lfail);
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_LWP_CREATE));
		break;
	case G_EXIT: /* (task, group_dead): the process when its last thread goes */
		skip_kthread(o, 0, lfail);
		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_6, 8));
		dt_frag_emit(o, KS_ALU64_IMM(BPF_AND, BPF_REG_1, 0xff));
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_1, 0, 0), lfail);
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_EXIT));
		break;
	case G_EXIT_LWP:
		skip_kthread(o, 0, lfail);
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_LWP_EXIT));
		break;
	case G_EXEC: dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_EXEC_SUCCESS)); break;
	case G_SYS_ENTER: { /* (regs, id) */
		int ldone = dt_frag_label(o);

		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_6, 8));
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_EXEC));
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_1, NR_EXECVE, 0), ldone);
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JNE, BPF_REG_1, NR_EXECVEAT, 0), lfail);
		dt_frag_place(o, ldone);
		break;
	}
	case G_SYS_EXIT: guard_sys_exit(o, false, lfail); break;
	case G_SYS_EXIT_LWP: guard_sys_exit(o, true, lfail); break;
	case G_SIGGEN: /* (sig, info, task, group, result) */
		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_6, 32));
		dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_1, TRACE_SIGNAL_IGNORED, 0), lfail);
		dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_SIGNAL_SEND));
		break;
	case G_SIGDLV: dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, P_SIGNAL_HANDLE)); break;
	}
	return 0;
}

/*
 * Then, at a system call with an enabled probe: a compat (ia32) call, whose
 * numbers are another table's, exits (TS_COMPAT in thread_info.status).
 */
static int guard_after(const dt_argreq_t *rq)
{
	dt_frag_t *o = rq->ar_out;
	int src = source(rq);

	if (src != SRC_SYS_ENTER && src != SRC_SYS_EXIT)
		return 0;
	dt_frag_compat_exit(o, DT_SLOT_GUARD, rq->ar_lfault);
	return 0;
}

/* exit's reason from task->exit_code (arg 0): CLD_EXITED, CLD_DUMPED or CLD_KILLED. */
static void exit_reason(dt_frag_t *o)
{
	int ldone = dt_frag_label(o);

	dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_6, 0));
	dt_frag_read_kernel(o, DT_TOFF_EXIT_CODE, 4, DT_SLOT_TMP, -1);
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_1, BPF_REG_0));
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_2, BPF_REG_1));
	dt_frag_emit(o, KS_ALU64_IMM(BPF_AND, BPF_REG_2, 0x7f));
	dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, 1)); /* exited: the status in bits 8-15 */
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JEQ, BPF_REG_2, 0, 0), ldone);
	dt_frag_emit(o, KS_MOV64_REG(BPF_REG_2, BPF_REG_1));
	dt_frag_emit(o, KS_ALU64_IMM(BPF_AND, BPF_REG_2, 0x80));
	dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, 3)); /* the core dump bit */
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JNE, BPF_REG_2, 0, 0), ldone);
	dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, 2));
	dt_frag_place(o, ldone);
}

/* exec's path: execve's first argument, execveat's second (from pt_regs). */
static void exec_path(dt_frag_t *o)
{
	int lnot_at = dt_frag_label(o);

	dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_6, 0));
	dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_6, 8));
	dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_2, ks_syscall_arg_offset(0)));
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JNE, BPF_REG_1, NR_EXECVEAT, 0), lnot_at);
	dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_2, ks_syscall_arg_offset(1)));
	dt_frag_place(o, lnot_at);
	dt_frag_emit(o, KS_ALU64_REG(BPF_ADD, BPF_REG_3, BPF_REG_2));
	dt_frag_read_kernel(o, -1, 8, DT_SLOT_TMP, -1);
}

/* The sys_exit probes' arg0: |ret| (exec-failure's errno, signal-clear's signal). */
static void abs_ret(dt_frag_t *o)
{
	int ldone = dt_frag_label(o);

	dt_frag_ctx_arg(o, 1);
	dt_frag_emit_to(o, KS_JMP_IMM(BPF_JSGE, BPF_REG_0, 0, 0), ldone);
	dt_frag_emit(o, KS_ALU64_IMM(BPF_NEG, BPF_REG_0, 0));
	dt_frag_place(o, ldone);
}

/* Argument i, the same code for every probe of the tracepoint (the head comment). */
static int arg(const dt_argreq_t *rq, int i)
{
	dt_frag_t *o = rq->ar_out;

	switch (source(rq) * 8 + (i < 8 ? i : 7)) {
	case SRC_FORK * 8 + 0:
	case SRC_FORK * 8 + 1: dt_frag_ctx_arg(o, 1); return 0;
	case SRC_EXIT * 8 + 0: exit_reason(o); return 0;
	case SRC_SYS_ENTER * 8 + 0: exec_path(o); return 0;
	case SRC_SYS_EXIT * 8 + 0: abs_ret(o); return 0;
	case SRC_SIGGEN * 8 + 0:
	case SRC_SIGGEN * 8 + 1: dt_frag_ctx_arg(o, 2); return 0;
	case SRC_SIGGEN * 8 + 2: dt_frag_ctx_arg(o, 0); return 0;
	case SRC_SIGDLV * 8 + 0:
	case SRC_SIGDLV * 8 + 1: dt_frag_ctx_arg(o, i); return 0;
	case SRC_SIGDLV * 8 + 2:
		dt_frag_emit(o, KS_LDX_MEM(BPF_DW, BPF_REG_3, BPF_REG_6, 16));
		dt_frag_read_kernel(o, DT_TOFF_SA_HANDLER, 8, DT_SLOT_TMP, -1);
		return 0;
	default: dt_frag_emit(o, KS_MOV64_IMM(BPF_REG_0, 0)); return 0;
	}
}

static int attach(dtrace_hdl_t *dtp, size_t p, const char *argspec, int fd, uint32_t attach_type,
		  int ncpus, dt_links_t *links)
{
	(void)argspec, (void)attach_type, (void)ncpus;
	return dt_attach_raw_tp(
	    dtp, p, fd, tracepoints[groups[probes[dtp->dt_pinfo[p].pi_sysnr].group].src], links);
}

const dt_provimpl_t dt_prov_proc = {
	.pv_name = "proc",
	.pv_dlib = true,
	.pv_populate = populate,
	.pv_arg = arg,
	.pv_attach = attach,
	.pv_group = group,
	.pv_guard = guard,
	.pv_guard_after = guard_after,
};
