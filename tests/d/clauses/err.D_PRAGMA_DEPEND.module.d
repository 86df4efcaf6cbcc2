/* a module that no running process maps and the kernel has not loaded */
#pragma D depends_on module nosuch_module

BEGIN
{
}
