/* a predicate that is not closed by '/' */
BEGIN
/pid != 0
{
}
