/* String subroutines where D uses values: predicates, aggregation and associative array keys, self-> and this-> variables, nested calls. */
/* @args: -q */
BEGIN { s = "/usr/bin/ls"; }
BEGIN /basename(s) == "ls"/ { printf("ok\n"); }
BEGIN /index(s, "bin") > 0 && strstr(s, "bin") == "bin/ls"/ { printf("ok2\n"); }
BEGIN
{
	@[dirname(s)] = count();
	a[substr(s, 1, 3)] = 1;
	self->t = toupper(s);
	this->n = strtoll(lltostr(12345));
	printf("%d %s %d\n", a["usr"], self->t, this->n);
	@k[toupper(basename(s)), lltostr(strlen(s))] = sum(3);
	exit(0);
}
