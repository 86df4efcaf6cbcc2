/*
 * copyout( ) and copyoutstr( ) are subroutines in illumos, void
 * expressions that its ordering rules skip: they may follow speculate( )
 * and commit( ) (destructive actions may not follow speculate( )), and
 * record nothing.
 */
BEGIN
{
	self->s = speculation();
	speculate(self->s);
	copyoutstr("a", 16, 2);
	commit(self->s);
	copyout(alloca(1), 16, 1);
}
