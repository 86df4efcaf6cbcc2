/* Strings: literals, copyinstr, assignment, comparison, strlen, strsize, probe names, execname. */
/* @setup: ./build.sh */
/* @args: -q -x strsize=16 -c "./trigger 3" */
trig$target:::tick
{
	s = copyinstr(arg1);
	printf("%s len %d %s %s %s\n", s, strlen(s), s == "beta" ? "is-beta" : "not-beta",
	    s < "beta" ? "less" : "not-less", probename);
}
trig$target:::done
{
	printf("%s:%s %s %s\n", probeprov == "trig" ? "bad" : "prov-has-pid", probename, execname,
	    "a string longer than sixteen bytes is cut");
}
