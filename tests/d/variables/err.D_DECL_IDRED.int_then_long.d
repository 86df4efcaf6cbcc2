/* A variable redeclared with a type of another width is a redeclaration. */
int x;
long x;
