/* #pragma D without a directive is ignored */
#pragma D

BEGIN
{
}
