/* found through -I inc */
#define SECOND_ARG const char *
