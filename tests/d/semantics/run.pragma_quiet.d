/*
 * #pragma D option quiet is -q: no "matched N probes" notice on stderr
 * either (dtrace(1) reads the option after compiling, before its notices).
 */
#pragma D option quiet

BEGIN
{
	printf("quiet\n");
	exit(0);
}
