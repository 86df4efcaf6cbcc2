/* An array declaration needs a dimension or key types. */
int vals[];
