/* long may appear at most twice in a type. */
long long long x;
