/* The trigger program's provider: the goldens of this folder trace it. */
provider trig {
	probe tick(int i, const char *name, long sq);
	probe neg(int v, short s, unsigned char c);
	probe sys(long ret);
	probe done(int n);
};
