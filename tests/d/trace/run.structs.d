/* Struct and union variables, used by their members: global, self->, this->, associative (the Guide's rwinfo.d pattern). */
/* @setup: ./build.sh */
/* @args: -q -c "./trigger 7" */
struct callinfo {
	uint64_t ts;       /* timestamp of the last tick */
	uint64_t elapsed;  /* sum of its i */
	uint64_t calls;    /* number of ticks */
	size_t maxsq;      /* largest sq */
	struct {
		short s;
		uint8_t b;
	} in;
};

union word {
	uint32_t w;
	uint8_t b;
};

struct callinfo total;
struct callinfo byname[string];
self struct callinfo mine;
this union word u;

trig$target:::tick
{
	total.calls++;
	total.elapsed += arg0;
	total.in.s = -arg0;
	total.in.b = 250 + arg0;	/* wraps past 255 */
	byname[copyinstr(arg1)].calls++;
	byname[copyinstr(arg1)].elapsed += arg0;
	byname[copyinstr(arg1)].maxsq = arg2 > byname[copyinstr(arg1)].maxsq ?
	    arg2 : byname[copyinstr(arg1)].maxsq;
	self->mine.calls += 2;
	this->u.w = 0x100 + arg0;
}

trig$target:::tick
/this->u.b == 3/
{
	printf("low byte 3 at %d\n", arg0);
}

trig$target:::done
{
	printf("total calls %d elapsed %d in %d %d\n", total.calls, total.elapsed, total.in.s,
	    total.in.b);
	printf("alpha %d %d %d\n", byname["alpha"].calls, byname["alpha"].elapsed,
	    byname["alpha"].maxsq);
	printf("beta %d %d %d\n", byname["beta"].calls, byname["beta"].elapsed,
	    byname["beta"].maxsq);
	printf("gamma %d %d %d\n", byname["gamma"].calls, byname["gamma"].elapsed,
	    byname["gamma"].maxsq);
	printf("absent %d self %d\n", byname["delta"].calls, self->mine.calls);
	byname["alpha"].calls = 0;	/* a member set to 0 keeps its element */
	printf("alpha after 0: %d %d\n", byname["alpha"].calls, byname["alpha"].elapsed);
}
