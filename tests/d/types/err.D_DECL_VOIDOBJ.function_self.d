/* a thread-local variable may point to a function, not be one */
self int (*ok)(int);
self int bad(int);

BEGIN
{
}
