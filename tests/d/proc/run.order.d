/*
 * The order illumos fires a process's probes in (its test
 * tst.startexit): lwp-create then create in the parent, start then
 * lwp-start in the child before its first instruction, lwp-exit then exit
 * when it exits.  Everything runs on one CPU, so the records come in the
 * order they were made.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./procs fork 1 3" */
proc:::lwp-create,
proc:::create
/pid == $target/
{
	printf("%s in the parent\n", probename);
}

proc:::start,
proc:::lwp-start,
proc:::lwp-exit,
proc:::exit
/ppid == $target/
{
	printf("%s in the child\n", probename);
}
