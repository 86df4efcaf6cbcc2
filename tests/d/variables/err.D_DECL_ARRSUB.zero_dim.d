/* An array dimension must be positive. */
int a[0];
