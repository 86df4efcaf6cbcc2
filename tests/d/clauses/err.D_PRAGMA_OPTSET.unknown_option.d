/* #pragma D option with an option that does not exist */
#pragma D option quiet
#pragma D option nosuchoption
BEGIN
{
}
