/* speculation(): two loops over the nspec slots (take an INACTIVE one by compare-and-exchange; else busy or unavailable); speculate() writes the tag at record offset 4 and the record is sent only with a tag; commit() and discard() move an ACTIVE slot and record its tag */
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
