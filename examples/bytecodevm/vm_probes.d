/*
 * vm: the provider of the example bytecode VM, in the shape of the
 * HotSpot provider of Java: names are passed as a pointer and a length
 * (they are not NUL-terminated in the VM), read with copyinstr(ptr, len).
 */
provider vm {
	/* a method was entered / returned: thread, class, its length, method, its length */
	probe method__entry(int thread, const char *cls, int cls_len, const char *method,
	    int method_len);
	probe method__return(int thread, const char *cls, int cls_len, const char *method,
	    int method_len);
	/* an object was allocated: thread, class, its length, size in bytes */
	probe object__alloc(int thread, const char *cls, int cls_len, uint64_t size);
	/* a collection: live objects before; after it, objects freed and live */
	probe gc__begin(uint64_t live);
	probe gc__end(uint64_t freed, uint64_t live);
};

#pragma D attributes Evolving/Evolving/Common provider vm provider
#pragma D attributes Evolving/Evolving/Common provider vm args
