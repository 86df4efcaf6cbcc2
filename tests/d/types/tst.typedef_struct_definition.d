/* A typedef may define its struct in place (the Guide's own example: typedef struct foo { ... } foo_t;). */
typedef struct foo {
	int x;
	int y;
} foo_t;

foo_t f;

BEGIN
{
	f.x = 1;
	ok = 1 / (sizeof (foo_t) == 8);
	ok = 1 / (sizeof (struct foo) == 8);
}
