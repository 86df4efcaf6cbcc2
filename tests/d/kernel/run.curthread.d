/*
 * curthread is the running thread's struct task_struct *, a kernel type
 * from BTF: its members are read from kernel memory and agree with the
 * built-in variables.  comm, a char array, is a string through stringof
 * and as a %s argument.
 */
/* @setup: ./build_spin.sh */
/* @args: -q -c ./spin */
profile:::tick-10ms
/pid == $target/
{
	printf("%d %d %d %d\n", curthread->pid == tid, curthread->tgid == pid,
	    curthread->real_parent->tgid == ppid, curthread->pid != 0);
	printf("%d %s %s\n", stringof(curthread->comm) == execname,
	    stringof(curthread->comm), curthread->comm);
	exit(0);
}
