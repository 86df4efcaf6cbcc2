/* a '}' with no clause to close */
BEGIN
{
}
}
