/* An inline name can be defined only once. */
inline int MAX = 10;
inline int MAX = 20;
