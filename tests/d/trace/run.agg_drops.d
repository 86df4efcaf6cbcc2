/* A full aggregation: the entries printed and the drops reported add up to the hits. */
/* @setup: ./build.sh */
/* @args: -q -x aggsize=400 -c "./trigger 100" */
trig$target:::tick
{
	@[arg0] = count();
}
trig$target:::done
{
	exit(0);
}
