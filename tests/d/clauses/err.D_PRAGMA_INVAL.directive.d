/* an unknown #pragma D directive */
#pragma D optoin quiet
BEGIN
{
}
