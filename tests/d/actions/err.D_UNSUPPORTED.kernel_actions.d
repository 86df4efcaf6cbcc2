/* chill() (and breakpoint(), panic()) are the kernel's: refused, saying what illumos does */
#pragma D option destructive
BEGIN
{
	chill(100);
}
