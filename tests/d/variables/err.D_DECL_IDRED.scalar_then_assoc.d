/* A scalar cannot be redeclared as an associative array. */
int table;
int table[string];
