/*
 * @[ustack()] = count() where c is called 300 times through a and b and
 * 100 times through a2: exactly two keys, counted in the kernel, with
 * the exact counts; ustackdepth is 7 for the first and 6 for the second.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./chain 100" */
pid$target:a.out:c:entry
{
	@[ustack()] = count();
	@depth[ustackdepth] = count();
}

END
{
	printa(@);
	printa("depth %d: %@d\n", @depth);
}
