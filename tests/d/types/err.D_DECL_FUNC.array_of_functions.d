/* an array of functions is no C type: an array of pointers to them is */
void (*ok[4])(void);
void bad[4](void);

BEGIN
{
}
