typedef int myint_t;
typedef long myint_t;
