/* a function returns a pointer to a function, not a function */
int (*(*ok)(int))(long);
int (*bad)(int)(long);

BEGIN
{
}
