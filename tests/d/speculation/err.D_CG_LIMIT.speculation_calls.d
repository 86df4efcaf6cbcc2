/* each speculation( ) call walks the nspec slots, and the verifier with it: 32 calls with nspec=256 load (the 8192 the verifier is given), the 33rd is refused at compile time, not at load */
#pragma D option nspec=256

BEGIN
{
	s0 = speculation();
	s1 = speculation();
	s2 = speculation();
	s3 = speculation();
	s4 = speculation();
	s5 = speculation();
	s6 = speculation();
	s7 = speculation();
	s8 = speculation();
	s9 = speculation();
	s10 = speculation();
	s11 = speculation();
	s12 = speculation();
	s13 = speculation();
	s14 = speculation();
	s15 = speculation();
	s16 = speculation();
	s17 = speculation();
	s18 = speculation();
	s19 = speculation();
	s20 = speculation();
	s21 = speculation();
	s22 = speculation();
	s23 = speculation();
	s24 = speculation();
	s25 = speculation();
	s26 = speculation();
	s27 = speculation();
	s28 = speculation();
	s29 = speculation();
	s30 = speculation();
	s31 = speculation();
	s32 = speculation();
}
