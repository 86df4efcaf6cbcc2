/* Reading a clause-local variable that was never assigned. */
BEGIN
{
	trace(this->never);
}
