/* a function returns a pointer to an array, not an array */
typedef int (*(*ok)(void))[4];
typedef int (*bad)(void)[4];

BEGIN
{
}
