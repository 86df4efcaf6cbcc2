/* "int f(int);" declares a function: DTrace takes it for an extern, which D here refuses */
int f(int);

BEGIN
{
}
