/*
 * The provider of the static-probe integration tests: every integer width
 * and sign, strings, pointers, no arguments and the full twelve.
 */
provider tst {
	probe ints(int8_t a, uint8_t b, int16_t c, uint16_t d, int32_t e, uint32_t f);
	probe wide(int64_t, uint64_t, const char *, char *, long, void *);
	probe str(string s, int len);
	probe noargs();
	probe twelve(int, unsigned, short, char, long, unsigned long,
	    int8_t, uint8_t, int16_t, uint16_t, int64_t, uint64_t);
	probe gate__check(int);
	probe main__entry(int argc);	/* fired from main.c: a second unit */
};

#pragma D attributes Evolving/Evolving/Common provider tst provider
#pragma D attributes Evolving/Evolving/Common provider tst args
