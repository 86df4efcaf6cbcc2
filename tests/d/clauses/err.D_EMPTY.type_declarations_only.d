/* a program of only type declarations is an empty translation unit */
typedef struct s { int a; } s_t;
enum e { A };
