/*
 * sched.d -- cpuinfo_t, as illumos' /usr/lib/dtrace/sched.d defines it,
 * translated from the kernel's struct task_struct (the CPU the task is
 * on: thread_info.cpu), and curcpu, pset, chip and lgrp.  The built-in
 * cpu is curcpu->cpu_id (both are the current CPU).
 *
 * Linux has no processor sets (cpu_pset is -1, as illumos gives for a CPU
 * in none), and a task does not lead to its CPU's package: cpu_chip is -1
 * (unknown).  cpu_lgrp is 0, one locality group, as illumos has on a
 * machine without NUMA.  cpu_info (processor_info_t) is not translated:
 * using it is refused when compiling.
 */

#pragma D depends_on library procfs.d

typedef int chipid_t;

typedef struct processor_info {
	int pi_state;
	char pi_processor_type[16];
	char pi_fputypes[32];
	int pi_clock;
} processor_info_t;

typedef struct cpuinfo {
	processorid_t cpu_id;
	psetid_t cpu_pset;
	chipid_t cpu_chip;
	lgrp_id_t cpu_lgrp;
	processor_info_t cpu_info;
} cpuinfo_t;

translator cpuinfo_t < struct task_struct *T > {
	cpu_id = T->thread_info.cpu;
	cpu_pset = -1;
	cpu_chip = -1;
	cpu_lgrp = 0;
};

inline cpuinfo_t *curcpu = xlate <cpuinfo_t *> (curthread);
#pragma D attributes Stable/Stable/Common curcpu
#pragma D binding "1.0" curcpu

inline psetid_t pset = curcpu->cpu_pset;
#pragma D attributes Stable/Stable/Common pset
#pragma D binding "1.0" pset

inline chipid_t chip = curcpu->cpu_chip;
#pragma D attributes Stable/Stable/Common chip
#pragma D binding "1.0" chip

inline lgrp_id_t lgrp = curcpu->cpu_lgrp;
#pragma D attributes Stable/Stable/Common lgrp
#pragma D binding "1.0" lgrp
