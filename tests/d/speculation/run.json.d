/* -x oformat=json: a committed record is a probe object after the commit's own; an illegal id's error has offset -1; failed speculations are drops of their kind */
/* @args: -x oformat=json */
BEGIN
{
	a = speculation();
	b = speculation();
}

BEGIN
{
	speculate(a);
	trace(1);
	printf("%s", "spec");
}

BEGIN
{
	commit(a);
}

BEGIN
{
	discard(7);
}

BEGIN
{
	exit(0);
}
