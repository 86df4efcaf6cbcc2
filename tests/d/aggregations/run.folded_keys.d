/*
 * -x oformat=folded without stacks: each entry a line, its keys as frames
 * joined by ';' and its value after a space (stackcollapse's format, for
 * flame graphs).  A ';' in a key becomes ':' and a newline a space, so a
 * key is one frame and an entry one line ("a;b" and "a:b" are then one
 * line, their counts added); an empty string is the frame "" (not
 * nothing, which would join its neighbours); an aggregation without keys
 * is one frame, its name; a quantization's value is the number of values
 * it holds.  The lines of an aggregation are sorted as text.  printa()
 * prints the same, its format or not; printf stays text.
 */
#pragma D option oformat=folded

BEGIN
{
	@a["x", 1] = count();
	@a["x", 1] = count();
	@a["a;b", 2] = count();
	@a["a:b", 2] = count();
	@a["two\nlines", 3] = count();
	@a["", 4] = count();
	@b = sum(5);
	@ = count();
	@c["k"] = quantize(3);
	@c["k"] = quantize(100);
	@c["k"] = quantize(-1);
	@d[-7, "avg"] = avg(4);
	@d[-7, "avg"] = avg(8);
	@e["m"] = min(-3);
	printf("text stays text\n");
	printa("%s %d %@d\n", @a);
	printa(@b);
	exit(0);
}
