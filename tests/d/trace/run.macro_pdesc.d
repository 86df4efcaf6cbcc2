/* Macros in probe descriptions are expanded when the program compiles: $1 here, $target in the others. */
/* @args: -q BEGIN */
dtrace:::$1
{
	printf("%s:::%s fired for $$1 = %s\n", probeprov, probename, $$1);
	exit(0);
}
