/*
 * vm: an example bytecode VM with a provider in the shape of Java's
 * HotSpot probes (vm_probes.d): method-entry and -return with class and
 * method names as pointer and length, object-alloc, gc-begin and -end.
 *
 *   vm [ITERATIONS]
 *
 * It runs one built-in program: Main.main loops ITERATIONS times (default
 * 1000), each time allocating a Point (Point.<init>) and calling
 * Math.square twice; every fourth iteration it also allocates a Line.
 * The heap holds 64 objects: a full heap runs a mark-and-sweep collection
 * whose roots are the operand stack and the locals.
 *
 * object-alloc is behind its is-enabled check (VM_OBJECT_ALLOC_ENABLED):
 * untraced, an allocation costs the test of a semaphore and nothing else,
 * as HotSpot's -XX:+ExtendedDTraceProbes probes are meant to.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm_probes.h"

enum { PUSH, LOAD, STORE, ADD, MUL, MOD, LT, JMPF, JMP, CALL, RET, NEW, POP, HALT };

typedef struct {
	const char *cls, *name; /* not NUL-terminated in a real VM: lengths go with them */
	int nargs, nlocals;
	const int *code;
} method_t;

typedef struct {
	const char *name;
	uint64_t size;
} class_t;

static const class_t classes[] = { { "Point", 24 }, { "Line", 40 } };

/* Math.square(x): x * x */
static const int square[] = { LOAD, 0, LOAD, 0, MUL, RET };
/* Point.<init>(x): a Point */
static const int point_init[] = { NEW, 0, RET };
/*
 * Main.main(n), locals n, i, s, p:
 *   i = 0; s = 0;
 *   while (i < n) {
 *           p = Point.<init>(i); s = s + Math.square(i) + Math.square(i + 1);
 *           if (i % 4 == 0) new Line;  (garbage at once)
 *           i = i + 1;
 *   }
 *   return s;
 */
static const int main_code[] = {
	PUSH, 0, STORE, 1,				     /* 0: i = 0 */
	PUSH, 0, STORE, 2,				     /* 4: s = 0 */
	LOAD, 1, LOAD,	0, LT,	  JMPF,	 59,		     /* 8: while (i < n) */
	LOAD, 1, CALL,	2, STORE, 3,			     /* 15: p = Point.<init>(i) */
	LOAD, 2, LOAD,	1, CALL,  1,	 ADD,		     /* 21: s + square(i) */
	LOAD, 1, PUSH,	1, ADD,	  CALL,	 1,   ADD, STORE, 2, /* 28: + square(i + 1) */
	LOAD, 1, PUSH,	4, MOD,	  JMPF,	 47,  JMP, 50,	     /* 38: if (i % 4 == 0) */
	NEW,  1, POP,					     /* 47: new Line */
	LOAD, 1, PUSH,	1, ADD,	  STORE, 1,   JMP, 8,	     /* 50: i = i + 1 */
	HALT,						     /* 59 */
};

static const method_t methods[] = {
	{ "Main", "main", 1, 4, main_code },
	{ "Math", "square", 1, 1, square },
	{ "Point", "<init>", 1, 1, point_init },
};

#define HEAP 64
static struct {
	int cls; /* -1: free */
	int mark;
} heap[HEAP];
static uint64_t live;

/* values: integers, or references (heap index + 1) << 32 */
#define REF(i)	 ((int64_t)((uint64_t)((i) + 1) << 32))
#define ISREF(v) ((v) >> 32 > 0 && (v) >> 32 <= HEAP && ((v)&0xffffffff) == 0)

static int64_t stack[4096];
static int sp;

static void gc(void)
{
	uint64_t before = live, freed = 0;

	VM_GC_BEGIN(before);
	for (int i = 0; i < sp; i++) /* the roots: every stack slot (locals live there too) */
		if (ISREF(stack[i]))
			heap[(stack[i] >> 32) - 1].mark = 1;
	for (int i = 0; i < HEAP; i++) {
		if (heap[i].cls >= 0 && !heap[i].mark) {
			heap[i].cls = -1;
			freed++;
			live--;
		}
		heap[i].mark = 0;
	}
	VM_GC_END(freed, live);
}

static int64_t alloc(int cls)
{
	if (live == HEAP)
		gc();
	for (int i = 0; i < HEAP; i++)
		if (heap[i].cls < 0) {
			heap[i].cls = cls;
			live++;
			if (VM_OBJECT_ALLOC_ENABLED()) /* a look at the semaphore, untraced */
				VM_OBJECT_ALLOC(1, classes[cls].name,
						(int)strlen(classes[cls].name), classes[cls].size);
			return REF(i);
		}
	fprintf(stderr, "vm: out of memory\n");
	exit(1);
}

/* Run method m with its arguments on the stack; its result replaces them. */
static void run(int m)
{
	const method_t *me = &methods[m];
	int base = sp - me->nargs, pc = 0;
	int64_t a, b;

	sp = base + me->nlocals;
	VM_METHOD_ENTRY(1, me->cls, (int)strlen(me->cls), me->name, (int)strlen(me->name));
	for (;;) {
		switch (me->code[pc++]) {
		case PUSH: stack[sp++] = me->code[pc++]; break;
		case LOAD:
			stack[sp] = stack[base + me->code[pc++]];
			sp++;
			break;
		case STORE: stack[base + me->code[pc++]] = stack[--sp]; break;
		case ADD: b = stack[--sp], a = stack[--sp], stack[sp++] = a + b; break;
		case MUL: b = stack[--sp], a = stack[--sp], stack[sp++] = a * b; break;
		case MOD: b = stack[--sp], a = stack[--sp], stack[sp++] = a % b; break;
		case LT: b = stack[--sp], a = stack[--sp], stack[sp++] = a < b; break;
		case JMPF: pc = stack[--sp] ? pc + 1 : me->code[pc]; break;
		case JMP: pc = me->code[pc]; break;
		case CALL: run(me->code[pc++]); break;
		case NEW:
			stack[sp] = alloc(me->code[pc++]);
			sp++;
			break;
		case POP: sp--; break;
		case RET:
			stack[base] = stack[sp - 1];
			sp = base + 1;
			VM_METHOD_RETURN(1, me->cls, (int)strlen(me->cls), me->name,
					 (int)strlen(me->name));
			return;
		case HALT:
			stack[base] = stack[base + 2]; /* main's s */
			sp = base + 1;
			VM_METHOD_RETURN(1, me->cls, (int)strlen(me->cls), me->name,
					 (int)strlen(me->name));
			return;
		}
	}
}

int main(int argc, char **argv)
{
	for (int i = 0; i < HEAP; i++)
		heap[i].cls = -1;
	stack[sp++] = argc > 1 ? atoll(argv[1]) : 1000;
	run(0);
	printf("result %lld, %llu objects live\n", (long long)stack[0], (unsigned long long)live);
	return 0;
}
