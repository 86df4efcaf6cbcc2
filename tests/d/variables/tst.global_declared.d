/* Globals declared with a type can be used in every clause. */
int hits;
uint64_t last;
string who;
char *where;
int a, b, *c;

BEGIN
{
	hits = 1;
	last = timestamp;
	who = execname;
	where = (char *)0;
	a = b = 2;
	c = (int *)0;
}

END
{
	x = hits + a + b;
	y = who == "dtrace";
}
