/* Reading a thread-local variable that was never assigned. */
BEGIN
{
	trace(self->never);
}
