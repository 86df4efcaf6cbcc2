/*
 * Arithmetic when the probe fires (variables: nothing folds), as DIF does
 * it: on the 64-bit values, the operands' types (C's usual conversions)
 * choosing only signed or unsigned division, shift and comparison; a value
 * is narrowed to its type when stored, cast or recorded.  So an int -1 is
 * 0xffffffffffffffff against an unsigned int: -1 / 2u is 2^63 - 1, printed
 * as the unsigned int 4294967295, and -1 == 0xffffffff is false.  An
 * assignment operator divides as its left operand's type (int -1 /= 2u is
 * 0).  Values worked out from illumos' DIF (dtrace_dif_emulate, dt_cg.c).
 */
/* @args: -q */
BEGIN
{
	this->m1 = -1;
	this->s2 = 2;
	this->two = 2u;
	this->seven = 7u;
	this->one = 1u;
	this->max = 0xffffffff;
	this->lm1 = -1L;
	this->us = (unsigned short)65535;
	this->sc = (signed char)-1;
	this->uc = (unsigned char)2;
	printf("-1 / 2u = %u\n", this->m1 / this->two);
	printf("-1 %% 7u = %u\n", this->m1 % this->seven);
	printf("-1 == 0xffffffff: %d\n", this->m1 == this->max);
	printf("-1 <= 4294967295u: %d\n", this->m1 <= this->max);
	printf("-1 > 1u: %d, -1 < 1u: %d\n", this->m1 > this->one, this->m1 < this->one);
	printf("-1L < 1u: %d, -1L / 2u = %d\n", this->lm1 < this->one, this->lm1 / this->two);
	printf("-1 / 2 = %d, -7 %% 2 = %d, -7 %% 2u = %u\n", this->m1 / 2, -7 % this->s2,
	    -7 % this->two);
	printf("0xfffffff0 >> 4 = %x, -16 >> 2u = %d\n", (this->max - 15) >> 4,
	    (this->m1 * 16) >> this->two);
	printf("0x80000000u * 2 = %u, 0xffffffffu + 1 = %u\n", (this->max / 2 + 1) * this->two,
	    this->max + this->one);
	this->c = -1;
	this->c /= this->two;
	printf("int -1 /= 2u: %d\n", this->c);
	this->u = (unsigned int)this->m1;
	printf("(unsigned int)-1 = %u, > 0: %d\n", this->u, this->u > 0);
	printf("(unsigned short)65535 + 1 = %d\n", this->us + 1);
	printf("(char)-1 / (uchar)2 = %d\n", this->sc / this->uc);
	exit(0);
}
