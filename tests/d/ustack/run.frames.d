/*
 * Fewer frames than the stack has: ustack(1) keeps c alone, so the 400
 * calls make one key; ustack(2) keeps c and its caller, so two keys
 * (b, 300 and a2, 100); ustack(20), more than there are, prints the 7
 * there are.  -x ustackframes=3 is the depth of ustack() without an
 * argument, not of ustackdepth, which counts the whole stack (7) as
 * illumos does.
 */
/* @setup: ./build.sh */
/* @args: -q -x ustackframes=3 -c "./chain 100" */
pid$target:a.out:c:entry
{
	@one[ustack(1)] = count();
	@two[ustack(2)] = count();
	@three[ustack()] = count();
}

pid$target:a.out:c:entry
/!done/
{
	ustack(20);
	printf("depth %d\n", ustackdepth);
	done = 1;
}

END
{
	printa(@one);
	printa(@two);
	printa(@three);
}
