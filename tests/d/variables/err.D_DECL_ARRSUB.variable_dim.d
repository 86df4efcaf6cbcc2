/* An array dimension must be a constant, not a variable. */
int n;
int a[n];
