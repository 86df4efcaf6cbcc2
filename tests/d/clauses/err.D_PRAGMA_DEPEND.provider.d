/* a provider that is neither built in, declared, nor in a running process */
#pragma D depends_on provider nosuchprovider

BEGIN
{
}
