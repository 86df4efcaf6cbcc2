/*
 * One script across providers: work() entries (pid), write(2) calls
 * (syscall, the target's only) and across:::tick (USDT) of one process
 * count into one aggregation keyed by each probe's provider (its process
 * ID cut off) and name: work() 7 times, write 5 times, tick 3 times.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./across 7 5 3" */
pid$target:a.out:work:entry,
syscall::write:entry,
across$target:::tick
/pid == $target/
{
	@[substr(probeprov, 0, 3), probefunc, probename] = count();
}

END
{
	printa("%-4s %-6s %-6s %@d\n", @);
}
