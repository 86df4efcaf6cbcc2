/* Variables assigned in one clause can be tested in a later clause's predicate. */
BEGIN
{
	armed = 1;
	self->depth = 0;
	state["go"] = 1;
}

tick-1s
/armed && self->depth == 0 && state["go"]/
{
	armed = 0;
}
