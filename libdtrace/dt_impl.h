/*
 * dt_impl.h -- libdtrace internals shared by its files, and by dtrace-gen,
 * which builds on the D front-end (one parser for D and provider files).
 */
#ifndef DT_IMPL_H
#define DT_IMPL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "dtrace.h"

#define DT_PROVNAMELEN	64 /* provider name limit, incl. NUL (as DTrace) */
#define DT_NAMELEN	64 /* probe name limit, incl. NUL */
#define DT_MAXPROBEARGS 12 /* stapsdt argument limit */
/*
 * The most bytes of D source a program may have (a file, or cpp's output):
 * reading /dev/zero, a FIFO or a runaway generator stops there, not when
 * memory runs out.  A program that large could not load anyway.
 */
#define DT_SRC_MAX (16U << 20)

/* ---------------------------------------------------------------- arena */

/* Bump allocator: everything a compile builds is freed at once. */
typedef struct dt_arena {
	struct dt_chunk *da_head;
	size_t da_chunk; /* bytes a chunk holds at least: 0, 64 KiB */
} dt_arena_t;

void *dt_arena_alloc(dt_arena_t *, size_t); /* zeroed; NULL on ENOMEM */
/*
 * Room for element n of a growing array: *arrp (a pointer to the array's
 * pointer) has *capp places of size bytes, doubled (or made first) when n
 * reaches them.  Returns 0, or -1 with the array unchanged (ENOMEM).
 */
int dt_grow(void *arrp, size_t *capp, size_t n, size_t size, size_t first);
char *dt_arena_strndup(dt_arena_t *, const char *, size_t);
void dt_arena_free(dt_arena_t *);

/*
 * A set of strings with values, in an arena.  add: 1 if added, 0 if the key
 * was there (its value in *oldp), -1 if out of memory.  Keys are not copied.
 */
typedef struct dt_strset dt_strset_t;
dt_strset_t *dt_strset_create(dt_arena_t *);
int dt_strset_add(dt_strset_t *, const char *key, const void *val, const void **oldp);
const void *dt_strset_get(const dt_strset_t *, const char *key);    /* NULL: absent */
int dt_strset_put(dt_strset_t *, const char *key, const void *val); /* add or replace */

/* ---------------------------------------------------------------- tokens */

typedef enum dt_tok {
	T_EOF = 0,
	T_IDENT,
	T_INT,	  /* integer constant: tk_ival, tk_flags */
	T_CHAR,	  /* character constant: tk_ival */
	T_STRING, /* string literal: tk_str (unescaped), tk_len */
	T_MACRO,  /* $1 $target $pid: tk_str is the name without '$' */
	T_MACSTR, /* $$1: tk_str is the name without '$$' */
	T_AGG,	  /* @name or @: tk_str is the name without '@' */
	T_PRAGMA, /* #pragma ... : tk_str is the rest of the line */
	T_PSPEC,  /* a probe description at the start of a clause: tk_str */
	T_EPRED,  /* the '/' that ends a predicate */
	T_BQUOTE, /* ` (scoping operator) */
	/* punctuators and operators */
	T_LPAREN,
	T_RPAREN,
	T_LBRACKET,
	T_RBRACKET,
	T_LBRACE,
	T_RBRACE,
	T_SEMI,
	T_COMMA,
	T_COLON,
	T_QUESTION,
	T_DOT,
	T_ARROW,
	T_ELLIPSIS,
	T_PLUS,
	T_MINUS,
	T_STAR,
	T_SLASH,
	T_PERCENT,
	T_AMP,
	T_BAR,
	T_XOR,
	T_TILDE,
	T_BANG,
	T_LT,
	T_GT,
	T_LE,
	T_GE,
	T_EQEQ,
	T_NE,
	T_LAND,
	T_LOR,
	T_LXOR,
	T_SHL,
	T_SHR,
	T_INC,
	T_DEC,
	T_ASSIGN,
	T_ADD_EQ,
	T_SUB_EQ,
	T_MUL_EQ,
	T_DIV_EQ,
	T_MOD_EQ,
	T_AND_EQ,
	T_OR_EQ,
	T_XOR_EQ,
	T_SHL_EQ,
	T_SHR_EQ,
	/* keywords (D reserves the C ones it does not use, too) */
	T_KW_FIRST,
	T_AUTO = T_KW_FIRST,
	T_BREAK,
	T_CASE,
	T_CHAR_KW,
	T_CONST,
	T_CONTINUE,
	T_COUNTER,
	T_DEFAULT,
	T_DO,
	T_DOUBLE,
	T_ELSE,
	T_ENUM,
	T_EXTERN,
	T_FLOAT,
	T_FOR,
	T_GOTO,
	T_IF,
	T_IMPORT,
	T_INLINE,
	T_INT_KW,
	T_LONG,
	T_OFFSETOF,
	T_PROBE,
	T_PROVIDER,
	T_REGISTER,
	T_RESTRICT,
	T_RETURN,
	T_SELF,
	T_SHORT,
	T_SIGNED,
	T_SIZEOF,
	T_STATIC,
	T_STRING_KW,
	T_STRINGOF,
	T_STRUCT,
	T_SWITCH,
	T_THIS,
	T_TRANSLATOR,
	T_TYPEDEF,
	T_UNION,
	T_UNSIGNED,
	T_USERLAND,
	T_VOID,
	T_VOLATILE,
	T_WHILE,
	T_XLATE,
	T_BOOL,
	T_KW_LAST = T_BOOL,
} dt_tok_t;

#define DT_INT_UNSIGNED 0x1 /* u suffix */
#define DT_INT_LONG	0x2 /* l suffix */
#define DT_INT_LONGLONG 0x4 /* ll suffix */
#define DT_INT_NONDEC	0x8 /* octal or hexadecimal: may be unsigned without a suffix */

typedef struct dt_loc {
	const char *file; /* arena string */
	unsigned line;
	unsigned col;
	size_t off; /* byte offset of the token in the lexed buffer */
} dt_loc_t;

typedef struct dt_token {
	dt_tok_t tk_kind;
	dt_loc_t tk_loc;
	const char *tk_str; /* identifiers, strings, macros, pragmas */
	size_t tk_len;	    /* length of tk_str (strings may hold NULs) */
	uint64_t tk_ival;
	int tk_flags;
	size_t tk_end; /* offset just past the token */
} dt_token_t;

/* ---------------------------------------------------------------- types */

typedef enum dt_tkind {
	DT_TK_VOID,
	DT_TK_INT, /* integers, char, _Bool, enums */
	DT_TK_FLOAT,
	DT_TK_PTR,
	DT_TK_STRING, /* D's string */
	DT_TK_STRUCT,
	DT_TK_UNION,
	DT_TK_ENUM,
	DT_TK_ARRAY,
	DT_TK_TYPEDEF,
	DT_TK_FUNC, /* a function: returns dtt_ref, takes dtt_args */
} dt_tkind_t;

#define DT_TF_SIGNED   0x1
#define DT_TF_CONST    0x2
#define DT_TF_VOLATILE 0x4
#define DT_TF_CNATIVE  0x8  /* typedef that C programs have (stdint, sys/types) */
#define DT_TF_VARARGS  0x10 /* a function that takes more arguments (...) */
#define DT_TF_KERNEL   0x20 /* imported from the kernel's BTF: what it points to is kernel memory */

typedef struct dt_member {
	struct dt_member *dm_next;
	const char *dm_name;
	struct dt_type *dm_type;
	size_t dm_off;
	int dm_bits; /* a bit-field's width, or 0 */
	int dm_bitoff; /* a bit-field's first bit in the byte at dm_off (x86-64: from the least significant) */
} dt_member_t;

/* The definition of a struct, union or enum tag, shared by its qualified copies. */
typedef struct dt_tagdef {
	bool td_complete;
	size_t td_size, td_align;
	dt_member_t *td_members; /* struct and union */
	dt_member_t *td_enums;	 /* enum: its enumerators in order, dm_off the value (int64_t) */
	dt_loc_t td_loc;	 /* where it was defined */
	/* a kernel struct or union (BTF id), its members read when first needed */
	uint32_t td_btfid;
	struct dt_typetab *td_tt;
} dt_tagdef_t;

typedef struct dt_type {
	dt_tkind_t dtt_kind;
	int dtt_flags;
	size_t dtt_size;	   /* 0 for void; for tags use dt_type_size() */
	const char *dtt_name;	   /* base, tag or typedef name; NULL for derived */
	struct dt_type *dtt_ref;   /* pointee, element, typedef target or return type */
	size_t dtt_nelems;	   /* arrays; functions: their dt_type_depth() */
	dt_tagdef_t *dtt_tag;	   /* struct, union, enum */
	struct dt_type **dtt_args; /* functions: the parameter types, */
	int dtt_nargs;		   /* dtt_nargs of them */
} dt_type_t;

typedef struct dt_typetab dt_typetab_t;

/* psinfo: with the built-in psinfo_t and lwpsinfo_t (not when procfs.d defines them) */
dt_typetab_t *dt_typetab_create(dt_arena_t *, bool psinfo);
dt_type_t *dt_type_lookup(dt_typetab_t *, const char *name); /* base or typedef */
dt_type_t *dt_type_tag(dt_typetab_t *, dt_tkind_t, const char *tag);
dt_type_t *dt_type_pointer(dt_typetab_t *, dt_type_t *ref);
dt_type_t *dt_type_array(dt_typetab_t *, dt_type_t *ref, size_t n);
/* A function type; args (nargs of them) are copied. */
dt_type_t *dt_type_func(dt_typetab_t *, dt_type_t *ret, dt_type_t *const *args, int nargs,
			bool varargs);
/*
 * How deeply a type nests (what spelling and comparing it recurse through):
 * pointers, arrays, typedefs, a function's return and parameter types.
 */
int dt_type_depth(const dt_type_t *);
dt_type_t *dt_type_qualify(dt_typetab_t *, dt_type_t *, int quals);
int dt_type_typedef(dt_typetab_t *, const char *name, dt_type_t *);
/*
 * A type written as C writes an abstract declarator of it, as providers
 * describe probe arguments: "int", "const char *", "struct file *",
 * "unsigned long long", "char **".  Names must be known to tt (a base type,
 * a typedef; a struct, union or enum tag is made incomplete if new).  NULL
 * for what it cannot read (arrays, functions, an unknown name).
 */
dt_type_t *dt_type_parse_string(dt_typetab_t *tt, const char *s);
const dt_type_t *dt_type_resolve(const dt_type_t *); /* strip typedefs */
size_t dt_type_size(const dt_type_t *);		     /* 0: void or incomplete */
size_t dt_type_align(const dt_type_t *);
bool dt_type_is_int(const dt_type_t *);	   /* integers, char, _Bool, enums */
bool dt_type_is_ptr(const dt_type_t *);	   /* pointers and arrays */
bool dt_type_is_scalar(const dt_type_t *); /* integers and pointers */
bool dt_type_is_string(const dt_type_t *);
bool dt_type_is_sou(const dt_type_t *); /* struct or union */
bool dt_type_is_void(const dt_type_t *);
bool dt_type_is_signed(const dt_type_t *);
/* Is a value of type src assignable to dst (the D/C rules)? */
bool dt_type_compatible(const dt_type_t *dst, const dt_type_t *src);
/*
 * Kernel types from vmlinux BTF (dt_type.c): the handle's BTF, opened at the
 * first need and kept until dtrace_close (NULL: a kernel without BTF).
 */
struct ks_btf *dt_btf(dtrace_hdl_t *);
/* Let tt import what D does not declare from the handle's kernel types. */
void dt_typetab_kernel(dt_typetab_t *, dtrace_hdl_t *);
/* A struct, union or enum tag D has not defined: bound to the kernel's; false if none. */
bool dt_type_kernel_tag(dt_typetab_t *, dt_type_t *);
/* Is t (or what it points to, or its element) kernel memory's? */
bool dt_type_is_kernel(const dt_type_t *);
const dt_member_t *dt_type_member(const dt_type_t *sou, const char *name);
/* D spelling ("const char *", "uint64_t"); returns the length needed. */
size_t dt_type_name(const dt_type_t *, char *buf, size_t len);
/* C spelling valid with <stdint.h> and <sys/types.h> (D-only typedefs resolved). */
size_t dt_type_cname(const dt_type_t *, char *buf, size_t len);

/* ---------------------------------------------------------------- programs */

typedef struct dt_probearg {
	dt_type_t *pa_type;
	const char *pa_name; /* may be NULL */
	dt_loc_t pa_loc;
} dt_probearg_t;

typedef struct dt_probedecl {
	struct dt_probedecl *pd_next;
	const char *pd_name;  /* as declared: query__start */
	const char *pd_dname; /* DTrace name: query-start */
	dt_loc_t pd_loc;
	int pd_nargc, pd_xargc;
	dt_probearg_t *pd_nargs; /* native (C) arguments */
	dt_probearg_t *pd_xargs; /* translated (D) arguments, or == pd_nargs */
} dt_probedecl_t;

typedef struct dt_attr {
	int name, data, dclass; /* stability, stability, class */
} dt_attr_t;

typedef struct dt_provdecl {
	struct dt_provdecl *pv_next;
	const char *pv_name;
	dt_loc_t pv_loc;
	dt_probedecl_t *pv_probes, *pv_lastprobe;
	int pv_nprobes;
	/* #pragma D attributes, per component: provider module function name args */
	dt_attr_t pv_attr[5];
} dt_provdecl_t;

struct dtrace_prog {
	struct dtrace_prog *dp_next;
	dt_arena_t dp_arena;
	dt_provdecl_t *dp_providers;
	int dp_nproviders;
	struct dt_node *dp_clauses;
	int dp_nclauses;
	struct dt_stmt *dp_stmts; /* the clauses as generated (dt_program.h), in order */
	int dp_nstmts;
};

/* ---------------------------------------------------------------- syntax tree */

typedef struct dt_pcb dt_pcb_t;

typedef enum dt_nkind {
	DT_N_INT,    /* dn_value, dn_intflags */
	DT_N_STRING, /* dn_string, dn_strlen */
	DT_N_IDENT,  /* dn_name: a variable, built-in, function or enumerator */
	DT_N_AGG,    /* dn_name: @name ("" for @) */
	DT_N_SELF,   /* the keyword self (as in self->x) */
	DT_N_THIS,   /* the keyword this */
	DT_N_UNARY, /* dn_op (T_MINUS, T_BANG, T_STAR for *p, T_AMP for &x, T_INC/T_DEC prefix), dn_left */
	DT_N_POSTFIX,  /* dn_op (T_INC, T_DEC), dn_left */
	DT_N_BINARY,   /* dn_op, dn_left, dn_right (includes T_ASSIGN and compound assignment) */
	DT_N_TERNARY,  /* dn_cond ? dn_left : dn_right */
	DT_N_CALL,     /* dn_name(dn_args...) */
	DT_N_INDEX,    /* dn_left[dn_args...]: arrays, associative arrays, aggregations */
	DT_N_MEMBER,   /* dn_left . dn_name, or -> when dn_op == T_ARROW */
	DT_N_CAST,     /* (dn_type) dn_left */
	DT_N_SIZEOF,   /* sizeof(dn_type) or sizeof dn_left */
	DT_N_OFFSETOF, /* offsetof(dn_type, dn_name) */
	DT_N_STRINGOF, /* stringof dn_left */
	DT_N_XLATE,    /* xlate<dn_type>(dn_left) */
	DT_N_SYM,      /* dn_name: `symbol or module`symbol */
	DT_N_CLAUSE,   /* dn_pdescs, dn_cond (predicate or NULL), dn_args (statements) */
	DT_N_PDESC,    /* dn_name: the probe description as written */
	DT_N_VARDECL, /* dn_op (0, T_SELF, T_THIS), dn_name, dn_type, dn_args: key types as DT_N_TYPE */
	DT_N_INLINE, /* dn_name, dn_type, dn_left: the expression */
	DT_N_XLATOR, /* dn_xlator */
	DT_N_TYPE,   /* dn_type: a type in a list */
} dt_nkind_t;

typedef struct dt_node {
	dt_nkind_t dn_kind;
	dt_loc_t dn_loc;
	struct dt_node *dn_next; /* the next in a list: arguments, statements, clauses */
	dt_tok_t dn_op;
	struct dt_node *dn_left, *dn_right, *dn_cond;
	struct dt_node *dn_args; /* a list */
	const char *dn_name;
	dt_type_t *dn_type; /* cast, sizeof, offsetof, xlate; after checking: the type */
	uint64_t dn_value;
	int dn_intflags;
	const char *dn_string;
	size_t dn_strlen;
	struct dt_node *dn_pdescs; /* clauses */
	int dn_flags;		   /* DT_NF_* */
	struct dt_ident *dn_ident; /* after checking: the identifier it names (built-ins: below) */
	int dn_depth;		   /* how deeply the expression below nests (chains are flat) */
	int dn_height;		   /* height of the expression tree below */
	struct dt_xlator *dn_xlator;
} dt_node_t;

#define DT_NF_LVALUE   0x1  /* designates storage */
#define DT_NF_WRITABLE 0x2  /* may be assigned */
#define DT_NF_CONST    0x4  /* an integer constant expression: dn_value holds it */
#define DT_NF_BITFIELD 0x8  /* a bit-field member */
#define DT_NF_PAREN    0x10 /* written in parentheses (an assignment's target may not be) */

/* ---------------------------------------------------------------- built-ins */

typedef enum dt_bkind { DB_VAR, DB_FUNC, DB_ACTION, DB_AGGFUNC } dt_bkind_t;

/*
 * One id per row of the table (dt_builtin.c), named DT_B_ and the built-in's
 * name in capitals; the row of id i is the table's element i.  Code that
 * treats a built-in specially switches on its id, never on its name.
 */
typedef enum dt_bid {
	/* variables */
	DT_B_ARG0,
	DT_B_ARG1,
	DT_B_ARG2,
	DT_B_ARG3,
	DT_B_ARG4,
	DT_B_ARG5,
	DT_B_ARG6,
	DT_B_ARG7,
	DT_B_ARG8,
	DT_B_ARG9,
	DT_B_ARGS,
	DT_B_CALLER,
	DT_B_CPU,
	DT_B_CURCPU,
	DT_B_CURLWPSINFO,
	DT_B_CURPSINFO,
	DT_B___CURPSARGS,
	DT_B_CURTHREAD,
	DT_B_CWD,
	DT_B_EPID,
	DT_B_ERRNO,
	DT_B_EXECNAME,
	DT_B_GID,
	DT_B_ID,
	DT_B_IPL,
	DT_B_PID,
	DT_B_PPID,
	DT_B_PROBEFUNC,
	DT_B_PROBEMOD,
	DT_B_PROBENAME,
	DT_B_PROBEPROV,
	DT_B_ROOT,
	DT_B_STACKDEPTH,
	DT_B_TID,
	DT_B_TIMESTAMP,
	DT_B_UCALLER,
	DT_B_UID,
	DT_B_UREGS,
	DT_B_USTACKDEPTH,
	DT_B_VTIMESTAMP,
	DT_B_WALLTIMESTAMP,
	DT_B_ZONENAME,

	/* subroutines */
	DT_B_ALLOCA,
	DT_B_BASENAME,
	DT_B_BCOPY,
	DT_B_CLEANPATH,
	DT_B_COPYIN,
	DT_B_COPYINSTR,
	DT_B_COPYINTO,
	DT_B_DIRNAME,
	DT_B_HTONL,
	DT_B_HTONLL,
	DT_B_HTONS,
	DT_B_INDEX,
	DT_B_INET_NTOA,
	DT_B_INET_NTOA6,
	DT_B_INET_NTOP,
	DT_B_JSON,
	DT_B_LLTOSTR,
	DT_B_NTOHL,
	DT_B_NTOHLL,
	DT_B_NTOHS,
	DT_B_PROGENYOF,
	DT_B_RAND,
	DT_B_RINDEX,
	DT_B_SPECULATION,
	DT_B_STRCHR,
	DT_B_STRJOIN,
	DT_B_STRLEN,
	DT_B_STRRCHR,
	DT_B_STRSTR,
	DT_B_STRTOK,
	DT_B_STRTOLL,
	DT_B_SUBSTR,
	DT_B_TOLOWER,
	DT_B_TOUPPER,
	DT_B_FUNC,
	DT_B_MOD,
	DT_B_SYM,
	DT_B_UADDR,
	DT_B_UFUNC,
	DT_B_UMOD,
	DT_B_USYM,
	DT_B_STACK,
	DT_B_USTACK,
	DT_B_JSTACK,

	/* actions */
	DT_B_BREAKPOINT,
	DT_B_CHILL,
	DT_B_CLEAR,
	DT_B_COMMIT,
	DT_B_COPYOUT,
	DT_B_COPYOUTSTR,
	DT_B_DENORMALIZE,
	DT_B_DISCARD,
	DT_B_EXIT,
	DT_B_FREOPEN,
	DT_B_FTRUNCATE,
	DT_B_NORMALIZE,
	DT_B_PANIC,
	DT_B_PRINT,
	DT_B_PRINTA,
	DT_B_PRINTF,
	DT_B_RAISE,
	DT_B_SETOPT,
	DT_B_SPECULATE,
	DT_B_STOP,
	DT_B_SYSTEM,
	DT_B_TRACE,
	DT_B_TRACEMEM,
	DT_B_TRUNC,

	/* aggregating functions */
	DT_B_AVG,
	DT_B_COUNT,
	DT_B_LLQUANTIZE,
	DT_B_LQUANTIZE,
	DT_B_MAX,
	DT_B_MIN,
	DT_B_QUANTIZE,
	DT_B_STDDEV,
	DT_B_SUM,

	/* the Guide's kernel variables and subroutines, refused */
	DT_B_CHIP,
	DT_B_FDS,
	DT_B_LGRP,
	DT_B_PSETID,
	DT_B_DDI_PATHNAME,
	DT_B_GETF,
	DT_B_GETMAJOR,
	DT_B_GETMINOR,
	DT_B_MSGDSIZE,
	DT_B_MSGSIZE,
	DT_B_MUTEX_OWNED,
	DT_B_MUTEX_OWNER,
	DT_B_MUTEX_TYPE_ADAPTIVE,
	DT_B_MUTEX_TYPE_SPIN,
	DT_B_RW_ISWRITER,
	DT_B_RW_READ_HELD,
	DT_B_RW_WRITE_HELD,

	DT_B_NBUILTINS
} dt_bid_t;

/* Properties rows share; what one built-in alone does is keyed on its id. */
#define DB_F_ARGS	 0x1  /* args[]: typed probe arguments */
#define DB_F_REGS	 0x2  /* uregs[]: indexed by register */
#define DB_F_DATA	 0x4  /* records data */
#define DB_F_DESTRUCTIVE 0x8  /* needs -w */
#define DB_F_FORMAT	 0x10 /* first argument is a printf format */
#define DB_F_SPECULATE	 0x40
#define DB_F_COMMIT	 0x80 /* commit() and discard() */
#define DB_F_EXIT	 0x100
#define DB_F_SYMADDR	 0x200	/* returns an address printed as a symbol */
#define DB_F_STACK	 0x400	/* returns a stack: trace, printf %k or a key */
#define DB_F_DISCARD	 0x800	/* discard(): neither data nor a commit */
#define DB_F_KERNEL	 0x1000 /* the Guide's, for kernel tracing only: refused, saying so */
#define DB_F_XLPTR	 0x2000 /* curpsinfo, curlwpsinfo: only their members have values */

/*
 * uregs[] indexes, as DTrace numbers them on amd64: the i386 names R_GS to
 * R_SS (0 to 18), then 19 + each of <sys/regset.h>'s 28 REG_* numbers.
 */
#define DT_UREGS_MAX 47

typedef struct dt_builtin {
	dt_bid_t db_id; /* its index in the table */
	const char *db_name;
	dt_bkind_t db_kind;
	const char *db_type;	    /* variable or return type, by name */
	int db_minargs, db_maxargs; /* -1: no limit */
	const char *db_args;	    /* argument kinds, see dt_builtin.c */
	int db_flags;
} dt_builtin_t;

/* The whole table, DT_B_NBUILTINS rows in id order; *n is set to their number. */
const dt_builtin_t *dt_builtin_table(size_t *n);
/*
 * The row named name, or NULL.  The checker resolves a name once, to an
 * identifier whose di_func is the row (see "Built-ins after checking").
 */
const dt_builtin_t *dt_builtin_lookup(const char *name);
/* The row of id, or NULL if id is not below DT_B_NBUILTINS. */
const dt_builtin_t *dt_builtin_get(dt_bid_t id);

/* ---------------------------------------------------------------- identifiers */

typedef enum dt_idkind {
	DT_IDENT_SCALAR,  /* a variable: global, self-> or this-> */
	DT_IDENT_ARRAY,	  /* an associative array: di_nkeys, di_keys */
	DT_IDENT_AGG,	  /* an aggregation: di_func, di_nkeys, di_keys, di_args */
	DT_IDENT_ENUM,	  /* an enumerator: di_value */
	DT_IDENT_INLINE,  /* an inline: di_inline */
	DT_IDENT_BUILTIN, /* a built-in variable (pid, execname, args...) */
	DT_IDENT_FUNC,	  /* a built-in function or action */
} dt_idkind_t;

#define DT_IDF_DECLARED 0x1 /* declared explicitly */
#define DT_IDF_ASSIGNED 0x2 /* assigned somewhere: its type is known */
#define DT_IDF_WRITABLE 0x4 /* a built-in that D may assign (none yet) */
#define DT_IDF_XLARG	0x8 /* a translator's input */

typedef struct dt_ident {
	dt_idkind_t di_kind;
	const char *di_name;
	int di_flags;
	dt_type_t *di_type; /* variables: value type; aggregations: NULL until used */
	dt_loc_t di_loc;    /* first declaration or use */
	int di_nkeys;	    /* arrays and aggregations; -1 while unknown */
	dt_type_t *di_keys[DT_MAXPROBEARGS];
	int64_t di_value;	   /* enumerators */
	struct dt_node *di_inline; /* inlines: the expression */
	/* DT_IDENT_BUILTIN and DT_IDENT_FUNC: the built-in's row; DT_IDENT_AGG: the
	 * aggregating function's row.  Never NULL for these kinds; NULL for others. */
	const struct dt_builtin *di_func;
	int di_nargs;	       /* aggregations: the function's arguments */
	int64_t di_aggargs[4]; /* aggregations: constant arguments (lquantize...) */
} dt_ident_t;

/*
 * Built-ins after checking.  Once the checker has accepted a clause, every
 * node in it that names a built-in leads to the built-in's row through its
 * identifier, with no name to look up: n->dn_ident->di_func is the row, and a
 * later stage (the code generator) switches on n->dn_ident->di_func->db_id.
 * These nodes carry it:
 *
 *   DT_N_IDENT  a built-in variable (pid, arg0, execname, curpsinfo, also as
 *               the dn_left of curpsinfo->pr_pid): DT_IDENT_BUILTIN.
 *   DT_N_IDENT  args or uregs as the dn_left of a DT_N_INDEX (args[0],
 *               uregs[0]): DT_IDENT_BUILTIN.  The DT_N_INDEX itself has no
 *               dn_ident; its type is the element's.
 *   DT_N_CALL   a subroutine or action, wherever it stands (a statement, an
 *               expression, an aggregation key, an argument): DT_IDENT_FUNC.
 *   DT_N_CALL   the aggregating function of @a[...] = f(...): DT_IDENT_FUNC.
 *               The DT_N_AGG @a on the left has the aggregation's identifier
 *               (DT_IDENT_AGG), whose di_func is the same row.
 *   DT_N_AGG    an argument of printa(), clear(), trunc(), normalize(),
 *               denormalize(): the aggregation's identifier (DT_IDENT_AGG).
 *
 * A node an inline stands for is a copy of the inline's checked expression:
 * the same holds for it.  Rows with DB_F_KERNEL never get this far: the
 * checker refuses them.
 */

typedef struct dt_pending_attr {
	struct dt_pending_attr *pa_next;
	dt_loc_t pa_loc;
	const char *pa_prov;
	int pa_comp;
	dt_attr_t pa_attr;
} dt_pending_attr_t;

typedef struct dt_xlator {
	struct dt_xlator *dx_next;
	dt_type_t *dx_to, *dx_from;
	const char *dx_arg;	    /* the input's name in the member expressions */
	struct dt_ident *dx_argid;  /* and its identifier there */
	struct dt_node *dx_members; /* DT_N_BINARY T_ASSIGN: member = expr */
	dt_loc_t dx_loc;
} dt_xlator_t;

dt_node_t *dt_node_alloc(dt_pcb_t *, dt_nkind_t, const dt_loc_t *);
/* Parse an expression, a clause body, a clause: in dt_pexpr.c. */
dt_node_t *dt_parse_expr(dt_pcb_t *);  /* assignment-expression */
dt_node_t *dt_parse_comma(dt_pcb_t *); /* expression, with the comma operator */
void dt_parse_clause(dt_pcb_t *);
/* Types: a type name in a cast, sizeof or declaration (dt_parse.c). */
bool dt_parse_at_type(dt_pcb_t *);
bool dt_parse_is_type(dt_pcb_t *, const dt_token_t *);
dt_type_t *dt_parse_type_name(dt_pcb_t *);
/* Take the current token if it is t; or else a syntax error expecting t. */
bool dt_accept(dt_pcb_t *, dt_tok_t);
void dt_expect(dt_pcb_t *, dt_tok_t);
/* "syntax error near ..." at the current token. */
_Noreturn void dt_syntax(dt_pcb_t *, const char *expected);
/* Append a top-level node (clause or declaration) to the program. */
void dt_parse_append(dt_pcb_t *, dt_node_t *);
/* Evaluate an integer constant expression; false if it is not one. */
bool dt_node_const(dt_pcb_t *, dt_node_t *, int64_t *);
/* The identifier tables (dt_check.c): create with the built-ins; look up. */
void dt_idents_init(dt_pcb_t *);
dt_ident_t *dt_ident_lookup(dt_strset_t *, const char *);
dt_ident_t *dt_ident_add(dt_pcb_t *, dt_strset_t *, const char *, dt_idkind_t, const dt_loc_t *);
/* A translator from type from to type to (or to what to points to), or NULL. */
dt_xlator_t *dt_find_xlator(dt_pcb_t *, const dt_type_t *from, const dt_type_t *to);
/* Check a top-level node as it is parsed, then what needs the whole program. */
void dt_check_node(dt_pcb_t *, dt_node_t *);
void dt_check_program(dt_pcb_t *);

/* ---------------------------------------------------------------- handle */

struct dtrace_hdl {
	int dt_errno;
	pid_t dt_target;	 /* $target: the -c or -p process, or 0 */
	uint64_t dt_options[64]; /* consumer options (dt_options.c), by table index */
	bool dt_optset[64];
	char dt_errmsg[1024];
	bool dt_errtags;
	char *dt_cpppath;
	struct ks_btf *dt_btf;	    /* the kernel's types (dt_btf()), */
	bool dt_btf_tried;	    /* opened once */
	struct dt_symtab *dt_usyms; /* processes and files read for names (dt_sym.c) */
	/* the D library directory (dt_dlib.c) */
	char **dt_libdirs; /* -L and -xlibdir, in order, searched before the default */
	int dt_nlibdirs;
	struct dt_lib *dt_libs;		/* the files read, in load order */
	struct dt_libname *dt_libnames; /* every name they declare, sorted (dt_dlib.c) */
	size_t dt_nlibnames;
	struct dt_lib *dt_libtry; /* the file being tried (dt_lib_load) */
	bool dt_libmiss;	  /* it names a kernel type this kernel lacks */
	bool dt_libs_read;
	bool dt_lib_procfs; /* a library defines curpsinfo: the built-in one steps aside */
	char **dt_cppargv;  /* -I/-D/-U arguments, malloc'd */
	int dt_cppargc;
	dtrace_prog_t *dt_progs;
	dtrace_prog_t *dt_retired;     /* destroyed while enabled: freed with the handle */
	dtrace_probedesc_t *dt_probes; /* the probe table (dt_probe.c); NULL until read */
	struct dt_pinfo *dt_pinfo;     /* what each probe attaches to, same index */
	size_t dt_nprobes, dt_pcap;
	dtrace_id_t dt_lastid;		/* the last probe ID given: IDs are not places */
	dt_arena_t dt_parena;		/* the table's strings and sites */
	pid_t dt_rescan_pid;		/* dt_probe_rescan: the process last read, */
	uint64_t dt_rescan_hash;	/* and a hash of its executable mappings */
	struct dt_piddesc *dt_piddescs; /* pid: descriptions provided (dt_prov_pid.c) */
	/* USDT: the processes whose probes were read (dt_prov_usdt.c) */
	pid_t *dt_usdt_pids; /* sorted */
	size_t dt_usdt_npids, dt_usdt_pidcap;
	bool dt_usdt_all;		  /* every process running then was read */
	bool dt_usdt_listing;		  /* the table is first read for dtrace -l: read them all */
	struct dt_pstate *dt_pstate;	  /* what compiled programs share (dt_program.h) */
	struct dt_run *dt_run;		  /* the enabled program (dt_load.c), or NULL */
	dtrace_msg_f *dt_errh, *dt_droph; /* fault and drop messages; NULL: stderr */
	void *dt_errharg, *dt_dropharg;
	dtrace_errdata_f *dt_errdh; /* the same as data: called instead, when set */
	dtrace_dropdata_f *dt_dropdh;
	void *dt_errdharg, *dt_dropdharg;
	/* last diagnostic; strings live in dt_diagbuf */
	dtrace_diag_t dt_diag;
	char dt_diagfile[512];
	char dt_diagtag[32];
	const char *dt_ptag; /* the D_* tag of a provider's last probe description error, or NULL */
	char dt_diagmsg[512];
	char dt_diagsrc[256];
};

int dt_set_errno(dtrace_hdl_t *, int);
/* Set a consumer option (dt_options.c): 0, or -1 with EDT_BADOPTNAME/VAL. */
int dt_option_set(dtrace_hdl_t *, const char *name, const char *val);
int dt_time_parse(const char *s, uint64_t *ns); /* "10ms", "997hz": a period in ns */
bool dt_option_isset(const dtrace_hdl_t *, const char *name);
/* An option's value (a switch: 1), or dflt when it is not set. */
uint64_t dt_option_get(const dtrace_hdl_t *, const char *name, uint64_t dflt);
/* The values of the oformat option. */
#define DT_OFORMAT_TEXT	  0
#define DT_OFORMAT_JSON	  1
#define DT_OFORMAT_FOLDED 2 /* aggregations as folded stacks, for flame graphs (dt_agg.c) */
/* Does the handle's run point into pgp's clauses (dt_load.c)? */
bool dt_run_uses(const dtrace_hdl_t *, const dtrace_prog_t *);
/* Free the enabled program of the handle, if any (dt_load.c). */
void dt_run_free(dtrace_hdl_t *);
int dt_set_errmsg(dtrace_hdl_t *, int, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---------------------------------------------------------------- compiler */

/*
 * A compile flag of the library's own (above the public DTRACE_C_* bits):
 * parse and check only, for tests of the front-end's tree of constructs
 * that code generation does not take yet.
 */
#define DT_C_FRONTEND 0x80000000u
/* Another: a compile of the library file dt_libtry alone (dt_dlib.c). */
#define DT_C_LIBTRY 0x40000000u

/* A name a file of the D library declares, and the file (dt_dlib.c). */
typedef struct dt_libname {
	const char *ln_name; /* in its file's dl_names */
	size_t ln_len;
	struct dt_lib *ln_lib;
} dt_libname_t;

/* A file of the D library directory (dt_dlib.c). */
typedef struct dt_lib {
	struct dt_lib *dl_next;
	char *dl_path; /* the file name its diagnostics give */
	char *dl_text;
	size_t dl_len;
	char *dl_names; /* the names it declares, NUL-separated (dt_dlib.c declared_names) */
	bool dl_skip;	/* left out: unreadable, or it needs what this system lacks */
	bool dl_ok;	/* parsed before every program */
	bool dl_procfs; /* it defines curpsinfo */
	bool dl_want;	/* a program names what it declares, or a file that depends on it */
	bool dl_tried;	/* compiled (dl_ok or dl_skip says how it went) */
} dt_lib_t;

/* -L and -xlibdir: 0, or -1 with the handle's error. */
int dt_lib_adddir(dtrace_hdl_t *, const char *dir);
/*
 * Read the library files once (the first compile), and compile each once,
 * for the first program src (len bytes, after cpp) that names something
 * it declares, with the files it depends on (src NULL: all, now): 0, or -1
 * with a file's error.
 */
int dt_lib_load(dtrace_hdl_t *, const char *src, size_t len);
void dt_lib_free(dtrace_hdl_t *);
/* The library file whose name (dl_path, by pointer) a location gives, or NULL. */
const dt_lib_t *dt_lib_of(const dtrace_hdl_t *, const char *file);
/* A note on stderr under -xdebug. */
void dt_lib_note(dtrace_hdl_t *, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parser control block: one per compile. */
struct dt_pcb {
	dtrace_hdl_t *pcb_hdl;
	dtrace_prog_t *pcb_prog;
	dt_arena_t *pcb_arena;
	dt_typetab_t *pcb_types;
	const char *pcb_buf; /* source text (after cpp), NUL-terminated */
	size_t pcb_len;
	size_t pcb_pos;
	unsigned pcb_line, pcb_col;
	const char *pcb_file; /* current file name (changes with # lines) */
	size_t pcb_linestart; /* offset of the current line */
	dt_token_t pcb_tok;   /* current token */
	dt_token_t pcb_peek;  /* lookahead, valid if pcb_havepeek */
	bool pcb_havepeek;
	jmp_buf pcb_jmp;
	int pcb_argc;
	char *const *pcb_argv;
	dt_strset_t *pcb_names; /* declared names, see dt_parse.c */
	/* lexer state for probe descriptions (see dt_lex.c) */
	int pcb_braces, pcb_parens;
	bool pcb_clause_start, pcb_prev_pspec;
	dt_tok_t pcb_prev_kinds[2]; /* the last two tokens' kinds, newest first */
	bool pcb_decl_body;	    /* the open top-level brace is a struct/union/enum body */
	bool pcb_in_predicate;	    /* a '/' before '{' ends the predicate */
	bool pcb_fromfile;	    /* the source is a file (-s), not a string (-n, -P...) */
	int pcb_depth;		    /* expression nesting */
	int pcb_ddepth;		    /* declarator nesting: parentheses, parameter lists */
	/* the program's top-level clauses and declarations, in order */
	struct dt_node *pcb_clauses, *pcb_lastclause;
	int pcb_nclauses;
	/* name spaces: globals (variables, built-ins, enumerators, inlines),
	 * self-> and this-> variables, aggregations */
	dt_strset_t *pcb_globals, *pcb_selfs, *pcb_thiss, *pcb_aggs;
	struct dt_xlator *pcb_xlators;
	struct dt_pending_attr *pcb_pending; /* #pragma D attributes for later providers */
	uint64_t pcb_macros_used;	     /* $n referenced: bit n (n < 64) */
	dt_lib_t *pcb_lib;		     /* the library file being parsed, or NULL */
	bool pcb_nops; /* no built-in curpsinfo and psinfo_t: a library's stand */
};

void dt_lex_init(dt_pcb_t *);
void dt_lex_next(dt_pcb_t *);		   /* advance pcb_tok */
const dt_token_t *dt_lex_peek(dt_pcb_t *); /* one token lookahead */
const char *dt_tok_name(dt_tok_t);
bool dt_tok_is_assign(dt_tok_t); /* = and the compound assignments (dt_pexpr.c) */

/* Report an error at loc and unwind the compile (longjmp to pcb_jmp). */
_Noreturn void dt_cerror(dt_pcb_t *, const dt_loc_t *, const char *tag, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
_Noreturn void dt_cnomem(dt_pcb_t *);
void *dt_palloc(dt_pcb_t *, size_t); /* arena alloc or unwind with EDT_NOMEM */

void dt_parse_program(dt_pcb_t *);

/* Run cpp over src; returns malloc'd output or NULL with the handle's error set. */
char *dt_cpp_run(dtrace_hdl_t *, const char *src, size_t len, const char *fname, size_t *outlen);

/* Convert a declared probe name (a__b) to its DTrace name (a-b). */
char *dt_probe_dname(dt_arena_t *, const char *);
/* The native argument translated argument i of a probe takes: by name, else position. */
int dt_probe_argmap(const dt_probedecl_t *, int i);

/* ---------------------------------------------------------------- probe table */

typedef enum dt_pkind {
	DT_PK_BEGIN = 1, /* dtrace:::BEGIN, END, ERROR in this order */
	DT_PK_END,
	DT_PK_ERROR,
	DT_PK_PROFILE, /* profile-N: every CPU */
	DT_PK_TICK,    /* tick-N: one CPU */
	DT_PK_USDT,
	DT_PK_SYSENTRY,	  /* syscall::NAME:entry */
	DT_PK_SYSRETURN,  /* syscall::NAME:return */
	DT_PK_PID_ENTRY,  /* pid: a function's first instruction */
	DT_PK_PID_RETURN, /* pid: each ret of a function (a uretprobe if it does not decode) */
	DT_PK_PID_OFFSET, /* pid: one instruction */
	DT_PK_FBT_ENTRY,  /* fbt: a kernel function's entry (fentry) */
	DT_PK_FBT_RETURN, /* and its return (fexit) */
	DT_PK_TP_BTF,	  /* a BTF-typed tracepoint (tp_btf): dt_load_verify's stand-in */
	DT_PK_PROC,	  /* proc: which one in pi_sysnr (dt_prov_proc.c) */
	DT_PK_SCHED,	  /* sched: which one in pi_sysnr (dt_prov_sched.c) */
} dt_pkind_t;

/*
 * A probe argument's description (illumos' dtrace_argdesc_t): args[i]'s
 * native (C) type, the D type a translator makes of it (NULL: none, args[i]
 * is the native type), and the native argument it is made from.
 */
typedef struct dt_argdesc {
	const char *native;
	const char *xlate;
	int mapping;
} dt_argdesc_t;

/* A provider's stability attributes by component (illumos' dtrace_pattr_t). */
typedef struct dt_pattr {
	dt_attr_t pa_provider, pa_mod, pa_func, pa_name, pa_args;
} dt_pattr_t;

/* One instrumented instruction of a USDT probe. */
typedef struct dt_usite {
	struct dt_usite *us_next;
	uint64_t us_off;	/* file offset of the probe site */
	uint64_t us_refoff;	/* file offset of the semaphore, or 0 */
	const char *us_argspec; /* the note's argument specification; a symbol operand relative
				   to %rip is written DELTA(%site), from the site's address */
	int us_nargs;		/* -1: the specification could not be parsed */
	uint64_t us_cookie;	/* pid return: the ret's offset in its function (arg0);
				   UINT64_MAX: a uretprobe on the function at us_off */
} dt_usite_t;

/*
 * What the probes of one file read in one walk keep (path, sites): freed
 * with the last of them (dt_probe_remove), so that a tracer that sees
 * providers come and go does not keep every one it has seen.
 */
typedef struct dt_pblock {
	dt_arena_t pb_arena;
	size_t pb_refs; /* probes in the table that point into it */
} dt_pblock_t;

typedef struct dt_pinfo {
	const struct dt_provimpl *pi_prov; /* its provider (dt_provider.h) */
	dt_pkind_t pi_kind;
	uint64_t pi_period;    /* profile and tick: nanoseconds */
	pid_t pi_pid;	       /* USDT, pid: the process, or 0 for every process */
	const char *pi_path;   /* USDT, pid: the file, as the kernel can open it */
	dt_usite_t *pi_sites;  /* USDT, pid */
	dt_pblock_t *pi_block; /* where pi_path and pi_sites are, or NULL (the handle's arena) */
	uint64_t pi_gone;      /* when its object was first seen gone (CLOCK_MONOTONIC ns), or 0 */
	int pi_sysnr;	       /* syscall: the call's number; proc: which probe */
	/* args[i] of the probe (pi_nargs of them; none: argN only, untyped) */
	const dt_argdesc_t *pi_args;
	int pi_nargs;
	const dt_pattr_t *pi_attr; /* NULL: Private/Private/Unknown throughout */
	uint32_t pi_btf_id;	   /* fbt, tp_btf: the kernel type the program is bound to */
	int pi_ctxargs;		   /* fbt, tp_btf: the 8-byte arguments of its context */
	const char *pi_group;	   /* pid: its group (dt_provider.h pv_group): kind and file */
	uint32_t pi_key;	   /* pid: its key there; tick: its place in dt_ticks */
} dt_pinfo_t;

/* A block for probes' paths and sites: NULL out of memory. */
dt_pblock_t *dt_pblock_new(void);
/* Drop a reference (freeing the block with the last), or free an unused one. */
void dt_pblock_put(dt_pblock_t *);

/* Read the probe table if it has not been read: 0, or -1 (EDT_NOMEM). */
int dt_probe_table(dtrace_hdl_t *);
/*
 * Read the table, with the probes made on demand that a description of
 * provider prov, or module mod, names (a process's USDT probes: python1234,
 * a module of any process): 0, or -1 (the table could not be read).
 */
int dt_probe_provide_named(dtrace_hdl_t *, const char *prov, const char *mod);
/* Add the probes of process pid not in the table yet; *first: the first new index. */
int dt_probe_rescan(dtrace_hdl_t *, pid_t pid, size_t *first);
/*
 * The argument descriptions (pi_args) of the probes pat matches, made on
 * demand if need be: 1 and *pi (the first of them) when every one has the
 * same; 0 when none matches or none has any; -1 when they differ, or some
 * have descriptions and others not.
 */
int dt_probe_argdescs(dtrace_hdl_t *, const dtrace_probedesc_t *pat, const dt_pinfo_t **pi);
/*
 * Make the probes of a description a provider makes when the program
 * compiles (pv_at_compile: pid): 0, or -1 with the handle's error and
 * *tag its D_* tag.
 */
int dt_probe_compile(dtrace_hdl_t *, const dtrace_probedesc_t *, const char **tag);
/* Is name[0..len) a provider whose args[] the D library translates (pv_dlib)? */
bool dt_probe_dlib_provider(const char *name, size_t len);
/* Does the description match the probe (the rules of dtrace_probe_iter)? */
bool dt_probe_match(const dtrace_probedesc_t *pat, const dtrace_probedesc_t *p);
/* ---------------------------------------------------------------- stapsdt notes */

typedef struct dt_stapsdt_arg {
	int sa_size; /* 1, 2, 4 or 8 bytes */
	bool sa_signed;
	bool sa_float;	      /* "4f@", "8f@": a float or double's bits (gcc's <sys/sdt.h>) */
	char sa_operand[128]; /* "%rax", "-4(%rbp)", "$5", "sym+8(%rip)", ... */
} dt_stapsdt_arg_t;

typedef struct dt_stapsdt_note {
	uint64_t sn_pc, sn_base, sn_sema; /* link-time addresses (0 in .o files) */
	const char *sn_provider;	  /* borrowed from the ELF data */
	const char *sn_name;
	const char *sn_argspec;
	int sn_nargs; /* -1: sn_argspec could not be parsed */
	dt_stapsdt_arg_t sn_args[DT_MAXPROBEARGS];
} dt_stapsdt_note_t;

typedef struct Elf Elf;
typedef int dt_stapsdt_f(const dt_stapsdt_note_t *, void *);

/*
 * Parse one note descriptor; 0, or -1 if its fields are malformed.  An
 * argument specification we cannot parse leaves sn_nargs -1.
 */
int dt_stapsdt_parse(const void *desc, size_t len, dt_stapsdt_note_t *);
/* Parse an argument specification alone into args[DT_MAXPROBEARGS]; the count, or -1. */
int dt_stapsdt_args(const char *spec, dt_stapsdt_arg_t *args);
/*
 * Call cb for every stapsdt note of an ELF file; stops at the first non-zero
 * return and returns it.  -1 with a message in err for a bad file.
 */
int dt_stapsdt_iter(Elf *, dt_stapsdt_f *cb, void *arg, char *err, size_t errlen);
/* The same for the file at path, read whole and checked with dt_elf_check first. */
int dt_stapsdt_file(const char *path, dt_stapsdt_f *cb, void *arg, char *err, size_t errlen);
/*
 * Check what libelf trusts in an x86-64 ELF image of size bytes: the
 * header, the section and program header tables within the file, every
 * section's data within it, names within the section name table, symbol
 * and relocation tables (entry sizes, links, symbol and section indexes,
 * a relocatable object's offsets within their sections), groups.  0, or
 * -1 with what is wrong in err.  dt_stapsdt_iter checks the notes.
 */
int dt_elf_check(const void *image, size_t size, char *err, size_t errlen);
/*
 * Read the whole regular file fd into *bufp (malloc'ed, the caller frees;
 * one spare byte after the *sizep read); 0, or -1 with a message in err.
 */
int dt_read_file(int fd, void **bufp, size_t *sizep, char *err, size_t errlen);

/* ---------------------------------------------------------------- user symbols (dt_sym.c) */

/* What a process maps at an address; its strings last as long as the handle. */
typedef struct dt_usym {
	const char *us_mod;  /* the object's base name ("libc.so.6"), or NULL */
	const char *us_name; /* the function that holds it, demangled, or NULL */
	uint64_t us_symaddr; /* where that symbol starts in the process */
	uint64_t us_modbase; /* where the object's first mapping starts */
} dt_usym_t;

/* 0 (us_name may be NULL), or -1 when no mapping of pid holds addr. */
int dt_usym_lookup(dtrace_hdl_t *, pid_t pid, uint64_t addr, dt_usym_t *);
/* As illumos' dtrace_uaddr2str: "mod`sym+0xoff", "mod`sym", "mod`0xaddr" or "0xaddr". */
void dt_uaddr_str(dtrace_hdl_t *, pid_t pid, uint64_t addr, char *buf, size_t len);
/* The same of an address looked up already (known: the look-up found a mapping). */
void dt_usym_str(const dt_usym_t *u, bool known, uint64_t addr, char *buf, size_t len);
/*
 * Read what pid maps now and keep it, so that its addresses have names
 * after it exits (the -c/-p target, at its start and whenever its
 * mappings change).
 */
void dt_usym_remember(dtrace_hdl_t *, pid_t pid);
/*
 * A kernel address by /proc/kallsyms (read at the first call and kept):
 * us_mod "vmlinux" or the module's name, us_name the function, us_symaddr
 * its start, us_modbase the module's first symbol.  0, or -1 when no
 * function holds addr (below the first, in data, no addresses shown).
 */
int dt_ksym_lookup(dtrace_hdl_t *, uint64_t addr, dt_usym_t *);
/* As illumos' dtrace_addr2str: "vmlinux`func+0xoff", "vmlinux`func" or "0xaddr". */
void dt_kaddr_str(dtrace_hdl_t *, uint64_t addr, char *buf, size_t len);
void dt_usym_free(dtrace_hdl_t *);

#endif /* DT_IMPL_H */
