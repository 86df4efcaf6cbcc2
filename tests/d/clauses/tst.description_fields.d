/* probe descriptions of one to four fields, with empty fields */
BEGIN
{
}

tick-1s
{
}

profile-997hz
{
}

profile:::tick-1sec
{
}

syscall::read:
{
}

:::entry
{
}

syscall:::return
{
}

fbt:genunix:open:entry
{
}

::open:entry
{
}
