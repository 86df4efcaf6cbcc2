/* C storage classes such as register do not exist in D. */
register int r;
