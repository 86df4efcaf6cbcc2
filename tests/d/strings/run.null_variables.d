/*
 * A string variable assigned NULL: a global or clause-local one keeps it
 * (illumos DIF_OP_STGS marks it), which compares as "" and faults when
 * used otherwise (printed, strlen, traced: invalid address 0); assigned
 * on, it stays NULL; a self-> one is deleted (illumos dtrace_dynvar() of
 * 0), and a self-> or associative string never assigned, or deleted, is
 * NULL too, as illumos reads a dynamic variable it does not find.  An empty string is not NULL, but compares
 * equal to it.  strtok() of a NULL string goes on with its saved string.
 */
/* @args: -q */

BEGIN
{
	s = "abc";
	s = NULL;
	printf("%d %d\n", s == NULL, s == "");
	t = s;
	printf("%d\n", t == NULL);
	this->p = strchr("abc", 'z');
	printf("%d %s\n", this->p == NULL, this->p != NULL ? this->p : "none");
	self->q = "x";
	a[2] = "two";
	self->never = self->q;
	self->never = NULL;
	self->q = strchr("abc", 'z');
	printf("%d %d\n", self->q == NULL, self->never == NULL);
	u = "";
	printf("%d [%s]\n", u == NULL, u);
	u = strjoin("", "");
	printf("%d [%s]\n", u == NULL, u);
	s = "back";
	printf("%s\n", s);
	s = NULL;
}
BEGIN
{
	printf("[%s]\n", s);
}
BEGIN
{
	printf("%d\n", strlen(t));
}

BEGIN
{
	printf("[%s]\n", self->q);
}

BEGIN
{
	printf("[%s]\n", a[1]);
}
BEGIN
{
	this->p = strchr("abc", 'z');
	trace(this->p);
}
BEGIN
{
	/* strtok() of a NULL string goes on with the saved one, as strtok(NULL, ...) */
	s = NULL;
	printf("%s ", strtok("a,b,c", ","));
	printf("%s ", strtok(s, ","));
	printf("%s\n", strtok(strchr("x", 'y'), ","));
}

BEGIN
{
	exit(0);
}
