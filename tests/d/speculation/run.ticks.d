/* a speculation per firing with nspec=1: the consumer makes the committed or discarded slot free again (cleanrate, 101 Hz) before the next tick takes it; even ticks committed, odd discarded */
/* @args: -q */
profile:::tick-5hz
{
	self->spec = speculation();
	self->n = i++;
}

profile:::tick-5hz
{
	speculate(self->spec);
	printf("tick %d, speculation %d\n", self->n, self->spec);
}

profile:::tick-5hz
/self->n % 2 == 0/
{
	commit(self->spec);
}

profile:::tick-5hz
/self->n % 2 == 1/
{
	discard(self->spec);
}

profile:::tick-5hz
/self->n == 5/
{
	exit(0);
}
