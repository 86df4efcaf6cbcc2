/* a parameter list does not end in a comma */
int (*f)(int, );

BEGIN
{
}
