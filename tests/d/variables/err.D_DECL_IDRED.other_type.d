/* A global cannot be redeclared with another type. */
int width;
string width;
