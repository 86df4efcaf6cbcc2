/* An unknown escape sequence such as \c is kept, not rejected (as DTrace's stresc2chr does). */
BEGIN
{
	c = '\c';
	s = "\c";
}
