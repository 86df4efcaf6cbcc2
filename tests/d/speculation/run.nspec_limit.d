/* nspec above 256 is refused when tracing starts (speculation() loops over the slots, and the verifier walks each), nspec=256 runs; nspec=0: speculation() always fails, unavailable */
/* @args: -q -x nspec=257 */
/* @exit: 1 */
BEGIN
{
	printf("%d\n", speculation());
	exit(0);
}
