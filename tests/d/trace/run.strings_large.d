/*
 * String comparison and strlen() with the largest strsize: strcmp a word at
 * a time, strlen through the kernel's string copy.  A byte loop per call
 * left the verifier a pending branch per byte: this program was refused at
 * load ("The sequence of 8193 jumps is too complex").
 */
/* @args: -q -x strsize=4096 */
BEGIN
{
	a = execname == "dtrace";
	printf("%d %d %d\n", a, strlen(probename), strlen(probefunc));
	exit(0);
}
