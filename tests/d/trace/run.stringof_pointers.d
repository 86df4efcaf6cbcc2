/*
 * stringof() of an integer or a pointer, and a cast to string, read the
 * string at that address, as illumos does (where the address is the
 * kernel's; here it is the traced process's): a provider's char *
 * argument given as arg1 (an integer) becomes its name, and a C body
 * (substr, toupper) takes it; stringof(42) faults at 0x2a.
 */
/* @setup: ./build.sh */
/* @args: -q -c "./trigger 3" */

BEGIN
{
	printf("%s\n", stringof(42));
}

trig$target:::tick
{
	printf("%s %s %s\n", stringof(arg1), (string)arg1, toupper(substr(stringof(arg1), 1)));
}
