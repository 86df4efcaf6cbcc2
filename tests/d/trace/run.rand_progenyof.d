/*
 * rand() gives ints that differ; progenyof(): the process itself, its
 * parent, init (1) and pid 0 are ancestors, pid -1 and a pid far above
 * any are not.
 */
/* @args: -q */
BEGIN
{
	a = rand();
	b = rand();
	c = rand();
	printf("%d\n", a != b || b != c);
	printf("%d %d %d %d %d %d\n", progenyof($pid), progenyof($ppid), progenyof(1),
	    progenyof(0), progenyof(-1), progenyof(99999999));
	exit(0);
}
