/* A declaration of a base type with no name declares nothing. */
int;
