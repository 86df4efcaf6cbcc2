/* self-> variables can be associative arrays with one or several keys. */
BEGIN
{
	self->seen[pid] = 1;
	self->seen[ppid] = self->seen[pid] + 1;
	self->calls[probefunc, 2] = timestamp;
	self->calls["x", 3] = self->calls[probefunc, 2];
}
