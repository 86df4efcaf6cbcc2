/*
 * sched.d's curcpu (cpuinfo_t of the current CPU) and its inlines: the
 * built-in cpu is curcpu->cpu_id; no processor sets, chip unknown, one
 * locality group.
 */
/* @args: -q */
profile-97
{
	@[curcpu->cpu_id == cpu, curcpu->cpu_pset, pset, curcpu->cpu_chip, chip,
	    curcpu->cpu_lgrp, lgrp] = count();
}

tick-300ms
{
	exit(0);
}

END
{
	printa("cpu_id == cpu %d, pset %d %d, chip %d %d, lgrp %d %d\n", @);
}
