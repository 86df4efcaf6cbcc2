/*
 * Declared scalar arrays (Guide: Array Declarations and Storage): global,
 * this-> and self->, indexed with integer expressions, read and written
 * with =, op=, ++ and --; their elements start at 0.  An index is computed
 * once (h[i++]++).  A run-time index outside the array is a bad address
 * fault (illumos faults a store outside every variable, dtrace_canstore;
 * Oracle's tst.declared-bounds.runtime_out), reported with its offset in
 * the variable: 4 * 8 = 0x20 for hist[8], 0xfffffffffffffffc for hist[-1];
 * the clause's record is lost, the next clause runs.
 * @args: -q
 */
int hist[8];
char buf[32];
long big[3];
unsigned char bytes[4];
this int loc[4];
self short th[5];

BEGIN
{
	i = 3;
	hist[i] = hist[i] + 1;
	hist[0]++;
	hist[i] += 5;
	hist[7] = -2;
	--hist[7];
	c = buf[i * 2];
	buf[0] = 'x';
	buf[31] = -1;
	big[2] = 0x7fffffffffffffff;
	big[1] = big[2] + 1;
	bytes[1] = 257;
	bytes[2] = 255;
	bytes[2]++;
	this->loc[1] = 10;
	this->loc[3] = this->loc[1] * 3;
	self->th[4] = 40000;
	self->th[0] = -7;
	j = 1;
	hist[j++]++;
	printf("hist: %d %d %d %d %d %d %d %d\n", hist[0], hist[1], hist[2], hist[3], hist[4],
	    hist[5], hist[6], hist[7]);
	printf("j %d, buf[6] %d, buf[0] %c, buf[31] %d\n", j, c, buf[0], buf[31]);
	printf("big %d %d, bytes %d %d %d\n", big[2], big[1], bytes[1], bytes[2], bytes[3]);
	printf("this->loc %d %d %d, self->th %d %d %d\n", this->loc[0], this->loc[1],
	    this->loc[3], self->th[4], self->th[0], self->th[2]);
	printf("sizeof: %d %d %d\n", sizeof (hist), sizeof (hist[0]), sizeof (buf));
}

BEGIN
{
	k = 8;
	hist[k] = 1;
	printf("not printed: the store faults\n");
}

BEGIN
{
	k = -1;
	trace(hist[k]);
}

BEGIN
{
	/* the faulting clauses wrote nothing */
	printf("after: hist[7] %d, sum %d\n", hist[7], hist[0] + hist[1] + hist[2] + hist[3]);
	exit(0);
}
