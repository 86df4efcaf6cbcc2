/* A declaration names at most one base type. */
float double f;
