/* #pragma D depends_on with a class and no name */
BEGIN
{
}
#pragma D depends_on provider
