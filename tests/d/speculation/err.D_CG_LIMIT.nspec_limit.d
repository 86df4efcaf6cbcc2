/* nspec above 256 is refused at the speculation( ) that would loop over the slots (the verifier walks each); 256 runs (run.nspec_max.d) */
#pragma D option nspec=257

BEGIN
{
	printf("%d\n", speculation());
	exit(0);
}
