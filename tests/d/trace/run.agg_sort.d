/*
 * The aggsort options: by key, reversed, by another key first.  The data
 * tell them apart: by value (aggsortkey ignored) beta, gamma, alpha; by the
 * first key (aggsortkeypos ignored) beta, alpha, gamma; not reversed alpha,
 * beta, gamma.  Expected: gamma, beta, alpha.
 */
/* @setup: ./build.sh */
/* @args: -q -x aggsortkey -x aggsortrev -x aggsortkeypos=1 -c "./trigger 6" */
trig$target:::tick
{
	@[(arg0 + 1) % 3, copyinstr(arg1)] = sum(arg0 % 3 == 1 ? 100 : arg0);
}
