/* void is a parameter list's only parameter */
int (*ok)(void);
int (*bad)(void, int);

BEGIN
{
}
