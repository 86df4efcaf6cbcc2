/*
 * setopt("flowindent") turns the flow column on from the next record, as
 * dt_consume_cpu rereads the option; the header stays the first one (chew
 * prints it once).
 */
BEGIN
{
	setopt("flowindent");
}

BEGIN
{
	trace(1);
}

BEGIN
{
	exit(0);
}
