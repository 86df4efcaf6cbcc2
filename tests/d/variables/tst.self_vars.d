/* Thread-local self-> variables are created by assignment or declared with self. */
self int declared;

BEGIN
{
	self->ts = timestamp;
	self->name = execname;
	self->declared = 4;
	self->declared++;
}

END
/self->ts/
{
	elapsed = timestamp - self->ts;
	self->ts = 0;
	same = self->name == execname;
}
