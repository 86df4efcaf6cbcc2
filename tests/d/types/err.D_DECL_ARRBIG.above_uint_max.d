/* An array dimension above UINT_MAX is too large. */
char buf[4294967296];
