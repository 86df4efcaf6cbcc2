/* #pragma D option with a size that is not a size */
#pragma D option bufsize=large
BEGIN
{
}
