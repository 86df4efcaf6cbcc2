/* unsigned may appear only once in a type. */
unsigned unsigned int u;
