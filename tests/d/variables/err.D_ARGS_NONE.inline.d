/* args[] outside of any probe clause. */
inline int FIRST = args[0];
