/*
 * pid entry probes: many(1, ..., 8) called 7 times, work(40, 2) 14 times
 * (7 from main, 7 through tailcall's jmp); many's seventh and eighth
 * arguments come from the stack.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./trigger 7" */
pid$target:a.out:work:entry
{
	@calls = count();
	@args[arg0, arg1] = count();
}

pid$target:a.out:many:entry
{
	@stack[arg0, arg5, arg6, arg7] = count();
}

END
{
	printa("work entered %@d times\n", @calls);
	printa("work(%d, %d) %@d\n", @args);
	printa("many(%d, ..., %d, %d, %d) %@d\n", @stack);
}
