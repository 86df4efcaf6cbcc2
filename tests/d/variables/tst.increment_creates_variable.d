/* ++ and -- create an undeclared variable as an int64_t (Guide: Increment and Decrement Operators). */
BEGIN
{
	calls++;
	--down;
	ok = 1 / (sizeof (calls) == 8);
}
