/*
 * A NULL string (strstr(), strchr(), strrchr(), strtok() finding nothing,
 * the constant NULL or 0) compares as "", as illumos' DIF_OP_SCMP
 * (dtrace_strncmp() reads a NULL string as empty): so a string found
 * empty is == NULL too.  A string variable may be assigned NULL, and the
 * constant 0 is NULL as well (illumos: a string is a char array, which
 * dt_node_is_ptrcompat() finds compatible with the constant 0).
 */
/* @args: -q */

BEGIN
/strstr(execname, "dtrace") != NULL/
{
	printf("%d %d %d %d\n", strstr("java-main", "java") != NULL,
	    strstr("bash", "java") != NULL, strstr("bash", "java") == NULL,
	    strstr("bash", "x") != 0);
	printf("%d %d %d %d\n", NULL == strchr("abc", 'z'), strrchr("abc", 'c') == NULL,
	    "" == NULL, strstr("", "") == NULL);
	printf("%d %d %d %d\n", "a" > NULL, NULL < "a", NULL <= "", 0 >= strchr("", 'q'));
	printf("%s\n", strchr("a/b", '/') != NULL ? strchr("a/b", '/') : "none");
	this->p = strchr("abc", '/');
	printf("%s\n", this->p != NULL ? this->p : "none");
	this->p = strchr("x/y", '/');
	printf("%s\n", this->p != NULL ? this->p : "none");
	s = "x";
	printf("%d ", s == NULL);
	s = NULL;
	printf("%d\n", s == NULL);
	printf("%d\n", (1 ? strchr("abc", 'z') : "q") == NULL);
	printf("%d\n", (0 ? strchr("abc", 'z') : "q") == NULL);
}

BEGIN
{
	printf("%s", strtok("a,b", ","));
	printf(" %d", strtok(NULL, ",") != NULL);
	printf(" %d", strtok(NULL, ",") != NULL);
	printf(" %d\n", strtok(NULL, ",") == NULL);
	exit(0);
}
