/* A struct needs at least one member. */
struct s { };
