/* #pragma D option with and without values, anywhere in the program */
#pragma D option quiet
#pragma D option bufsize=4m
#pragma D option switchrate=10hz
#pragma D option aggsize=1m
#pragma D option strsize=512

BEGIN
{
	trace(1);
}

#pragma D option destructive
#pragma D option nspec=4

END
{
}
