/* An inline's expression must be compatible with its declared type. */
inline string LABEL = 7;
