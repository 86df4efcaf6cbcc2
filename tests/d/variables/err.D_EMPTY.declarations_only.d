/* declarations alone are an empty program, as in DTrace */
int x;
self string s;
