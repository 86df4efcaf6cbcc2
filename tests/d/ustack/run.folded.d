/*
 * -x oformat=folded with stack keys: each entry one line, its frames root
 * first (_start ... c) joined by ';', module`function without offsets,
 * then its count; keys that are not stacks come first.  @m's two stacks
 * differ only in c's own offset (its entry, and the instruction at +7):
 * folded, they are one line, their counts added (800).
 */
/* @setup: ./build.sh */
/* @args: -q -x oformat=folded -c "./chain 100" */
pid$target:a.out:c:entry
{
	@[ustack()] = count();
	@k[probefunc, ustack(2)] = count();
}

pid$target:a.out:c:entry,
pid$target:a.out:c:7
{
	@m[ustack(1)] = count();
}
