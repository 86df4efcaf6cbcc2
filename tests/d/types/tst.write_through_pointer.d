/* stores through a pointer compile (alloca()'d scratch; checked when the probe fires) */
struct pt {
	int x;
	int y;
};

BEGIN
{
	this->p = (struct pt *)alloca(sizeof (struct pt));
	this->p->x = 1;
	this->q = (int *)alloca(sizeof (int));
	*this->q = 2;
	this->q[0] = 3;
}
