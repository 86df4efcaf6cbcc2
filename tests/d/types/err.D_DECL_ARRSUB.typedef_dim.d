/* An array dimension in a type must be a positive integer constant. */
typedef int vec_t[-2];
