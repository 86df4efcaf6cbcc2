/* declarators in parentheses nest 32 deep at most */
int ((((((((((((((((((((((((((((((((((x))))))))))))))))))))))))))))))))));

BEGIN
{
}
