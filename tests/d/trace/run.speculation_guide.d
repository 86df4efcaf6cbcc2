/*
 * Speculative tracing as the Guide's chapter does it, on a real process:
 * each trig:::tick speculates its line, even ones are committed and odd
 * ones discarded; each trig:::sys speculates its return value, and only
 * the call that failed (errno set) is committed, with its errno.  nspec=8:
 * six ticks and two calls, no speculation fails.
 */
/* @setup: ./build.sh */
/* @args: -q -x nspec=8 -c "./trigger 6" */
trig$target:::tick
{
	self->spec = speculation();
	speculate(self->spec);
	printf("tick %d %s\n", arg0, copyinstr(arg1));
}

trig$target:::tick
/self->spec && arg0 % 2 == 0/
{
	commit(self->spec);
	self->spec = 0;
}

trig$target:::tick
/self->spec/
{
	discard(self->spec);
	self->spec = 0;
}

trig$target:::sys
{
	self->s = speculation();
	speculate(self->s);
	printf("sys returned %d\n", arg0);
}

trig$target:::sys
/errno != 0/
{
	speculate(self->s);
	printf("errno %d\n", errno);
}

trig$target:::sys
/errno != 0/
{
	commit(self->s);
}

trig$target:::sys
/errno == 0/
{
	discard(self->s);
}

trig$target:::done
{
	printf("done %d\n", arg0);
}
