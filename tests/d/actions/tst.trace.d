/* trace() of integers, strings, pointers, variables and expressions */
BEGIN
{
	trace(1);
	trace("a string");
	trace(execname);
	trace(pid + 1);
	trace(timestamp);
	trace((void *)arg0);
	self->x = 2;
	trace(self->x * 3);
	this->s = strjoin("a", "b");
	trace(this->s);
	trace(arg0 > 0 ? "positive" : "not positive");
}
