/* chip is DTrace's built-in variable, kernel-only here: it cannot be declared either. */
int chip;

BEGIN
{
}
