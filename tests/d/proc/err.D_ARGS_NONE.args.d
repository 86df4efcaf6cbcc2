/*
 * args[] of proc probes needs the translators (psinfo_t * from the
 * kernel's task): until they exist it is refused when compiling, and
 * arg0.. hold the native values.
 */
proc:::exit
{
	trace(args[0]);
}
