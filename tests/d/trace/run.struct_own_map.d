/* A large struct array has a map of its own: 200 scalar elements still fit in dynvarsize=64k beside it. */
/* @setup: ./build.sh */
/* @args: -q -x dynvarsize=64k -c "./trigger 200" */
struct big {
	char pad[4000];
	uint64_t n;
};
struct big b[int];
int sq[int];

trig$target:::tick
{
	sq[arg0] = arg2 + 1;
	b[arg0 % 4].n += arg0;
}

trig$target:::done
{
	printf("sq %d %d b %d %d %d %d\n", sq[0], sq[199], b[0].n, b[1].n, b[2].n, b[3].n);
}
