/*
 * Every kind of argument a provider may declare; compiles with -h, and the
 * header compiles as C and C++ (see run_golden.py).
 */
typedef unsigned long long counter_t;
typedef struct conn conn_t;
struct conninfo {
	int ci_id;
};
translator struct conninfo < conn_t *c > {
	ci_id = 0;
};

provider alltypes {
	probe none();
	probe empty(void);
	probe chars(char, signed char, unsigned char, _Bool);
	probe shorts(short, unsigned short, short int, unsigned short int);
	probe ints(int, unsigned, signed, unsigned int, signed int);
	probe longs(long, unsigned long, long long, unsigned long long, long int);
	probe stdints(int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t);
	probe systypes(size_t, ssize_t, pid_t, uid_t, gid_t, off_t, uintptr_t, intptr_t);
	probe solaris(uchar_t, ushort_t, uint_t, ulong_t, longlong_t, u_longlong_t, hrtime_t);
	probe ptrs(void *, const void *, char *, const char *, int **, struct conn *, union u *);
	probe strings(string, const char * const);
	probe floats(double, float);
	probe named(int count, const char *name, conn_t *c, counter_t n);
	probe enums(enum color);
	probe twelve(int, int, int, int, int, int, int, int, int, int, int, int);
	probe translated(conn_t *c, int fd) : (struct conninfo *ci, int fd);
};

provider second {
	probe start();
};

provider alltypes {
	probe merged__later(int);
};

#pragma D attributes Evolving/Evolving/Common provider alltypes provider
#pragma D attributes Private/Private/Unknown provider alltypes module
#pragma D attributes Private/Private/Unknown provider alltypes function
#pragma D attributes Evolving/Evolving/Common provider alltypes name
#pragma D attributes Evolving/Evolving/Common provider alltypes args
#pragma D option quiet
#pragma ident "ignored, as C does"
