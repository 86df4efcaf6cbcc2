/* A global of a struct type that is never defined has no size. */
struct undefined;
struct undefined g;
