/* speculation(): one loop over the nspec slots of dt_spec's value (take an INACTIVE one by compare-and-exchange, busy gathered without a branch, the id through scratch memory); speculate() writes the tag at record offset 4 and the record is sent only with a tag; commit() and discard() move an ACTIVE slot and record its tag */
BEGIN
{
	self->s = speculation();
}

BEGIN
{
	speculate(self->s);
	trace(1);
}

BEGIN
{
	commit(self->s);
	discard(2);
}
