/* an inline cannot be void */
inline void v = 1;

BEGIN
{
	trace(1);
}
