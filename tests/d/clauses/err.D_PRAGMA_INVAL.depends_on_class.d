/* #pragma D depends_on with a class that does not exist */
#pragma D depends_on bogus x

BEGIN
{
}
