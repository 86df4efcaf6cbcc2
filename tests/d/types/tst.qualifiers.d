/* const and volatile qualifiers are accepted in declarations and casts. */
const int limit;
volatile unsigned long ticks;
const char *msg;
char *const fixed;

BEGIN
{
	x = limit + 1;
	y = (const char *)msg;
	z = (volatile int)3;
}
