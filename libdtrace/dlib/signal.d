/*
 * signal.d -- the signal numbers (illumos' /usr/lib/dtrace/signal.d, with
 * Linux's values: asm/signal.h), the si_code values, and siginfo_t for
 * proc:::signal-handle's args[1], translated from the kernel's struct
 * kernel_siginfo.
 *
 * illumos' siginfo_t is <sys/siginfo.h>'s, whose si_pid and the like are
 * C macros over unions; here they are members.  As in C on Linux, the
 * members that share the kernel's union (si_pid, si_uid, si_status,
 * si_addr, si_band) mean something only for the signals and codes that
 * fill them: si_pid and si_uid for kill(2), sigqueue(3) and SIGCHLD,
 * si_status for SIGCHLD, si_addr for SIGSEGV, SIGBUS, SIGILL and SIGFPE,
 * si_band for SIGPOLL.
 */

inline int SIGHUP = 1;
#pragma D binding "1.0" SIGHUP
inline int SIGINT = 2;
#pragma D binding "1.0" SIGINT
inline int SIGQUIT = 3;
#pragma D binding "1.0" SIGQUIT
inline int SIGILL = 4;
#pragma D binding "1.0" SIGILL
inline int SIGTRAP = 5;
#pragma D binding "1.0" SIGTRAP
inline int SIGABRT = 6;
#pragma D binding "1.0" SIGABRT
inline int SIGBUS = 7;
#pragma D binding "1.0" SIGBUS
inline int SIGFPE = 8;
#pragma D binding "1.0" SIGFPE
inline int SIGKILL = 9;
#pragma D binding "1.0" SIGKILL
inline int SIGUSR1 = 10;
#pragma D binding "1.0" SIGUSR1
inline int SIGSEGV = 11;
#pragma D binding "1.0" SIGSEGV
inline int SIGUSR2 = 12;
#pragma D binding "1.0" SIGUSR2
inline int SIGPIPE = 13;
#pragma D binding "1.0" SIGPIPE
inline int SIGALRM = 14;
#pragma D binding "1.0" SIGALRM
inline int SIGTERM = 15;
#pragma D binding "1.0" SIGTERM
inline int SIGSTKFLT = 16;
#pragma D binding "1.0" SIGSTKFLT
inline int SIGCHLD = 17;
#pragma D binding "1.0" SIGCHLD
inline int SIGCONT = 18;
#pragma D binding "1.0" SIGCONT
inline int SIGSTOP = 19;
#pragma D binding "1.0" SIGSTOP
inline int SIGTSTP = 20;
#pragma D binding "1.0" SIGTSTP
inline int SIGTTIN = 21;
#pragma D binding "1.0" SIGTTIN
inline int SIGTTOU = 22;
#pragma D binding "1.0" SIGTTOU
inline int SIGURG = 23;
#pragma D binding "1.0" SIGURG
inline int SIGXCPU = 24;
#pragma D binding "1.0" SIGXCPU
inline int SIGXFSZ = 25;
#pragma D binding "1.0" SIGXFSZ
inline int SIGVTALRM = 26;
#pragma D binding "1.0" SIGVTALRM
inline int SIGPROF = 27;
#pragma D binding "1.0" SIGPROF
inline int SIGWINCH = 28;
#pragma D binding "1.0" SIGWINCH
inline int SIGIO = 29;
#pragma D binding "1.0" SIGIO
inline int SIGPWR = 30;
#pragma D binding "1.0" SIGPWR
inline int SIGSYS = 31;
#pragma D binding "1.0" SIGSYS
inline int SIGIOT = 6;
#pragma D binding "1.0" SIGIOT
inline int SIGPOLL = 29;
#pragma D binding "1.0" SIGPOLL
inline int SIGCLD = 17;
#pragma D binding "1.0" SIGCLD
inline int SIGRTMIN = 34;
#pragma D binding "1.0" SIGRTMIN
inline int SIGRTMAX = 64;
#pragma D binding "1.0" SIGRTMAX

inline int SI_USER = 0;
#pragma D binding "1.0" SI_USER
inline int SI_KERNEL = 128;
#pragma D binding "1.0" SI_KERNEL
inline int SI_QUEUE = -1;
#pragma D binding "1.0" SI_QUEUE
inline int SI_TIMER = -2;
#pragma D binding "1.0" SI_TIMER
inline int SI_MESGQ = -3;
#pragma D binding "1.0" SI_MESGQ
inline int SI_ASYNCIO = -4;
#pragma D binding "1.0" SI_ASYNCIO
inline int SI_SIGIO = -5;
#pragma D binding "1.0" SI_SIGIO
inline int SI_TKILL = -6;
#pragma D binding "1.0" SI_TKILL
inline int CLD_EXITED = 1;
#pragma D binding "1.0" CLD_EXITED
inline int CLD_KILLED = 2;
#pragma D binding "1.0" CLD_KILLED
inline int CLD_DUMPED = 3;
#pragma D binding "1.0" CLD_DUMPED
inline int CLD_TRAPPED = 4;
#pragma D binding "1.0" CLD_TRAPPED
inline int CLD_STOPPED = 5;
#pragma D binding "1.0" CLD_STOPPED
inline int CLD_CONTINUED = 6;
#pragma D binding "1.0" CLD_CONTINUED
inline int SEGV_MAPERR = 1;
#pragma D binding "1.0" SEGV_MAPERR
inline int SEGV_ACCERR = 2;
#pragma D binding "1.0" SEGV_ACCERR
inline int BUS_ADRALN = 1;
#pragma D binding "1.0" BUS_ADRALN
inline int BUS_ADRERR = 2;
#pragma D binding "1.0" BUS_ADRERR
inline int BUS_OBJERR = 3;
#pragma D binding "1.0" BUS_OBJERR
inline int ILL_ILLOPC = 1;
#pragma D binding "1.0" ILL_ILLOPC
inline int ILL_ILLOPN = 2;
#pragma D binding "1.0" ILL_ILLOPN
inline int ILL_ILLADR = 3;
#pragma D binding "1.0" ILL_ILLADR
inline int ILL_ILLTRP = 4;
#pragma D binding "1.0" ILL_ILLTRP
inline int ILL_PRVOPC = 5;
#pragma D binding "1.0" ILL_PRVOPC
inline int ILL_PRVREG = 6;
#pragma D binding "1.0" ILL_PRVREG
inline int ILL_COPROC = 7;
#pragma D binding "1.0" ILL_COPROC
inline int ILL_BADSTK = 8;
#pragma D binding "1.0" ILL_BADSTK
inline int FPE_INTDIV = 1;
#pragma D binding "1.0" FPE_INTDIV
inline int FPE_INTOVF = 2;
#pragma D binding "1.0" FPE_INTOVF
inline int FPE_FLTDIV = 3;
#pragma D binding "1.0" FPE_FLTDIV
inline int FPE_FLTOVF = 4;
#pragma D binding "1.0" FPE_FLTOVF
inline int FPE_FLTUND = 5;
#pragma D binding "1.0" FPE_FLTUND
inline int FPE_FLTRES = 6;
#pragma D binding "1.0" FPE_FLTRES
inline int FPE_FLTINV = 7;
#pragma D binding "1.0" FPE_FLTINV
inline int FPE_FLTSUB = 8;
#pragma D binding "1.0" FPE_FLTSUB
inline int TRAP_BRKPT = 1;
#pragma D binding "1.0" TRAP_BRKPT
inline int TRAP_TRACE = 2;
#pragma D binding "1.0" TRAP_TRACE
inline int POLL_IN = 1;
#pragma D binding "1.0" POLL_IN
inline int POLL_OUT = 2;
#pragma D binding "1.0" POLL_OUT
inline int POLL_MSG = 3;
#pragma D binding "1.0" POLL_MSG
inline int POLL_ERR = 4;
#pragma D binding "1.0" POLL_ERR
inline int POLL_PRI = 5;
#pragma D binding "1.0" POLL_PRI
inline int POLL_HUP = 6;
#pragma D binding "1.0" POLL_HUP

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
