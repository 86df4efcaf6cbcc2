/* a probe description with five fields */
BEGIN
{
}

syscall::read:entry:extra
{
}
