/* #pragma D option with two options on one line */
#pragma D option quiet flowindent
BEGIN
{
}
