/* a preprocessor directive without -C */
#define LIMIT 10
BEGIN
{
}
