/*
 * $$0: a -s script's name here; dtrace(1)'s argv[0] in a -n program (illumos
 * g_argv[0]; only compile_file replaces it; it was the -n program's text).
 * basename: the runner's path to dtrace may vary.
 * @args: -q -n "BEGIN { printf(\"-n: %s\\n\", basename($$0)); exit(0); }"
 */
BEGIN
{
	printf("-s: %s\n", $$0);
}
