/* a clause that faults after its commit() loses its record, but the commit happened (as in illumos): the consumer finds the speculation committing without a record and commits it itself at the end */
/* @args: -q */
BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	printf("committed all the same\n");
}

BEGIN
{
	commit(s);
	this->p = (int *)8;
	this->x = *this->p;
}

BEGIN
{
	printf("before the end\n");
	exit(0);
}
