/*
 * basename(), dirname() and cleanpath() as illumos: "" is "." for both,
 * a string of slashes "/", trailing slashes belong to neither, a name
 * with no slash has dirname "."; cleanpath() drops "//" and "/./", and
 * "/.." takes back the last component written (up to the start: "a/.."
 * is "a", as illumos gives).  Values by hand from illumos's code.
 */
/* @args: -q */

BEGIN
{
	printf("[%s] [%s]\n", basename(""), dirname(""));
	printf("[%s] [%s]\n", basename("/"), dirname("/"));
	printf("[%s] [%s]\n", basename("///"), dirname("///"));
	printf("[%s] [%s]\n", basename("a"), dirname("a"));
	printf("[%s] [%s]\n", basename("a/"), dirname("a/"));
	printf("[%s] [%s]\n", basename("/a"), dirname("/a"));
	printf("[%s] [%s]\n", basename("//a//b//"), dirname("//a//b//"));
	printf("[%s] [%s]\n", basename("/usr/lib/../bin/dtrace"), dirname("/usr/lib/../bin/dtrace"));
	printf("[%s] [%s]\n", cleanpath("/usr/lib/../bin/dtrace"), cleanpath("a//b"));
	printf("[%s] [%s] [%s]\n", cleanpath("/./a"), cleanpath("/a/.."), cleanpath("a/.."));
	printf("[%s] [%s] [%s]\n", cleanpath("/a/b/../../c"), cleanpath("/a/./b/."), cleanpath("/..."));
	printf("[%s] [%s] [%s] [%s]\n", cleanpath("/..x/y"), cleanpath("a/"), cleanpath(""),
	    cleanpath("/../a"));
	printf("[%s]\n", dirname(dirname(cleanpath("/x/y/./z/"))));
	exit(0);
}
