/* A variable cannot reuse the name of an inline with another type. */
inline int LIMIT = 10;
string LIMIT;
