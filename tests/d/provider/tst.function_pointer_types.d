/* a provider file may declare pointers to functions for its own types; its probes take integers */
typedef int (*handler_t)(int);

struct req {
	handler_t done;
	int (*filter)(const char *);
};

provider web {
	probe handled(struct req *, uintptr_t);
};
