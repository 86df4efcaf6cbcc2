/* rand(), progenyof(), speculation() values, and setopt() and ftruncate() */
BEGIN
{
	trace(rand() % 10);
	trace(progenyof($pid));
	this->spec = speculation();
	trace(this->spec);
	setopt("quiet");
	setopt("bufsize", "4m");
	ftruncate();
}
