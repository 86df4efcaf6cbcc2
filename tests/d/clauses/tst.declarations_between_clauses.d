/* variable declarations and clauses mixed at the top level */
int total;
self int depth;

BEGIN
{
	total = 0;
}

this string name;
self uint64_t ts[int];

syscall::read:entry
{
	self->depth++;
	self->ts[arg0] = timestamp;
	this->name = execname;
	total++;
}
