/*
 * procfs.d -- psinfo_t and lwpsinfo_t, as illumos' <sys/procfs.h> lays
 * them out, translated from the kernel's struct task_struct (its types
 * from BTF), and curpsinfo and curlwpsinfo, as illumos'
 * /usr/lib/dtrace/procfs.d defines them.
 *
 * Linux has no LWP/process split of illumos' kind: a process is its
 * thread group (pr_pid is T->tgid, pr_lwpid is T->pid).  Members this
 * translator does not define are refused when used (D_XLATE_NOCONV).
 * pr_psargs is the current process's, whatever the input (the argument
 * strings are in the process's memory, which only the current one's is
 * readable): use it through curpsinfo.  pr_pri is 139 - T->prio, so that
 * a higher number is more urgent, as illumos has it.
 */

#pragma D depends_on provider profile

typedef int taskid_t;
typedef int projid_t;
typedef int poolid_t;
typedef int psetid_t;
typedef int lgrp_id_t;

typedef struct timestruc {
	long tv_sec;
	long tv_nsec;
} timestruc_t;

typedef struct lwpsinfo {
	int pr_flag;
	id_t pr_lwpid;
	uintptr_t pr_addr;
	uintptr_t pr_wchan;
	char pr_stype;
	char pr_state;
	char pr_sname;
	char pr_nice;
	short pr_syscall;
	char pr_oldpri;
	char pr_cpu;
	int pr_pri;
	ushort_t pr_pctcpu;
	ushort_t pr_pad;
	timestruc_t pr_start;
	timestruc_t pr_time;
	char pr_clname[8];
	char pr_name[16];
	processorid_t pr_onpro;
	processorid_t pr_bindpro;
	psetid_t pr_bindpset;
	lgrp_id_t pr_lgrp;
} lwpsinfo_t;

typedef struct psinfo {
	int pr_flag;
	int pr_nlwp;
	pid_t pr_pid;
	pid_t pr_ppid;
	pid_t pr_pgid;
	pid_t pr_sid;
	uid_t pr_uid;
	uid_t pr_euid;
	gid_t pr_gid;
	gid_t pr_egid;
	uintptr_t pr_addr;
	size_t pr_size;
	size_t pr_rssize;
	size_t pr_pad1;
	dev_t pr_ttydev;
	ushort_t pr_pctcpu;
	ushort_t pr_pctmem;
	timestruc_t pr_start;
	timestruc_t pr_time;
	timestruc_t pr_ctime;
	char pr_fname[16];
	char pr_psargs[80];
	int pr_wstat;
	int pr_argc;
	uintptr_t pr_argv;
	uintptr_t pr_envp;
	char pr_dmodel;
	char pr_pad2[3];
	taskid_t pr_taskid;
	projid_t pr_projid;
	int pr_nzomb;
	poolid_t pr_poolid;
	zoneid_t pr_zoneid;
	id_t pr_contract;
	int pr_filler[1];
	lwpsinfo_t pr_lwp;
} psinfo_t;

/* pr_state and pr_sname values (illumos' <sys/thread.h> and ps(1)) */
inline char SSLEEP = 1;
#pragma D binding "1.0" SSLEEP
inline char SRUN = 2;
#pragma D binding "1.0" SRUN
inline char SZOMB = 3;
#pragma D binding "1.0" SZOMB
inline char SSTOP = 4;
#pragma D binding "1.0" SSTOP
inline char SIDL = 5;
#pragma D binding "1.0" SIDL
inline char SONPROC = 6;
#pragma D binding "1.0" SONPROC
inline char SWAIT = 7;
#pragma D binding "1.0" SWAIT

inline char PR_MODEL_ILP32 = 1;
#pragma D binding "1.0" PR_MODEL_ILP32
inline char PR_MODEL_LP64 = 2;
#pragma D binding "1.0" PR_MODEL_LP64

translator psinfo_t < struct task_struct *T > {
	pr_nlwp = T->signal->nr_threads;
	pr_pid = T->tgid;
	pr_ppid = T->real_parent->tgid;
	pr_pgid = T->signal->pids[PIDTYPE_PGID]->numbers[0].nr;
	pr_sid = T->signal->pids[PIDTYPE_SID]->numbers[0].nr;
	pr_uid = T->cred->uid.val;
	pr_euid = T->cred->euid.val;
	pr_gid = T->cred->gid.val;
	pr_egid = T->cred->egid.val;
	pr_addr = (uintptr_t)T;
	pr_fname = T->group_leader->comm;
	pr_psargs = __curpsargs;
	pr_argc = 0;
	pr_argv = T->mm == NULL ? 0 : T->mm->arg_start;
	pr_envp = T->mm == NULL ? 0 : T->mm->env_start;
	pr_dmodel = (T->thread_info.status & 2) != 0 ? PR_MODEL_ILP32 : PR_MODEL_LP64;
	pr_taskid = 0;
	pr_projid = 0;
	pr_poolid = 0;
	pr_zoneid = 0;
	pr_contract = -1;
};

translator lwpsinfo_t < struct task_struct *T > {
	pr_lwpid = T->pid;
	pr_addr = (uintptr_t)T;
	pr_wchan = 0;
	pr_state = T->exit_state != 0 ? SZOMB :
	    T->__state == 0 && T->on_cpu != 0 ? SONPROC :
	    T->__state == 0 ? SRUN :
	    (T->__state & (4 | 8)) != 0 ? SSTOP : SSLEEP;
	pr_sname = T->exit_state != 0 ? 'Z' :
	    T->__state == 0 && T->on_cpu != 0 ? 'O' :
	    T->__state == 0 ? 'R' :
	    (T->__state & (4 | 8)) != 0 ? 'T' : 'S';
	pr_syscall = 0;
	pr_pri = 139 - T->prio;
	pr_name = T->comm;
	pr_onpro = T->thread_info.cpu;
	pr_bindpro = T->nr_cpus_allowed == 1 ? T->thread_info.cpu : -1;
	pr_bindpset = -1;
	pr_lgrp = 0;
};

inline psinfo_t *curpsinfo = xlate <psinfo_t *> (curthread);
#pragma D attributes Stable/Stable/Common curpsinfo
#pragma D binding "1.0" curpsinfo

inline lwpsinfo_t *curlwpsinfo = xlate <lwpsinfo_t *> (curthread);
#pragma D attributes Stable/Stable/Common curlwpsinfo
#pragma D binding "1.0" curlwpsinfo

/*
 * siginfo_t, for proc:::signal-handle's args[1], translated from the
 * kernel's struct kernel_siginfo.  illumos' siginfo_t is <sys/siginfo.h>'s,
 * whose si_pid and the like are C macros over unions; here they are
 * members.  As in C on Linux, the members that share the kernel's union
 * (si_pid, si_uid, si_status, si_addr, si_band) mean something only for
 * the signals and codes that fill them: si_pid and si_uid for kill(2),
 * sigqueue(3) and SIGCHLD, si_status for SIGCHLD, si_addr for SIGSEGV,
 * SIGBUS, SIGILL and SIGFPE, si_band for SIGPOLL.
 */
typedef struct siginfo {
	int si_signo;
	int si_code;
	int si_errno;
	pid_t si_pid;
	uid_t si_uid;
	uintptr_t si_addr;
	int si_status;
	long si_band;
	uintptr_t si_value;
} siginfo_t;

translator siginfo_t < struct kernel_siginfo *S > {
	si_signo = S->si_signo;
	si_code = S->si_code;
	si_errno = S->si_errno;
	si_pid = S->_sifields._kill._pid;
	si_uid = S->_sifields._kill._uid;
	si_addr = (uintptr_t)S->_sifields._sigfault._addr;
	si_status = S->_sifields._sigchld._status;
	si_band = S->_sifields._sigpoll._band;
	si_value = (uintptr_t)S->_sifields._rt._sigval.sival_ptr;
};
