/* signed, unsigned, short and long do not apply to void. */
unsigned void v;
