/* probe descriptions with the glob characters *, ? and [...] in every field */
syscall::*read*:entry
{
}

syscall::?rite:entry
{
}

syscall::[rw]*:return
{
}

sys*:::
{
}

*:*:*:*
{
}

fbt:gen?nix:[a-c]*:return,
fbt::[!o]pen:entry
{
}
