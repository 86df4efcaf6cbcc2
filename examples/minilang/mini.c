/*
 * mini: a small interpreted language, in the style of PHP's engine, with
 * a stable provider (mini_probes.d): function-entry and -return (name,
 * file, line), compile-start and -done, request-start and -done.
 *
 *   mini [-n REQUESTS] FILE...
 *
 * Each request parses every FILE (as PHP without an opcode cache) and
 * runs main().  The language: functions `function f(a, b) { ... }`,
 * `var x = e;`, `x = e;`, `if (e) { } else { }`, `while (e) { }`,
 * `return e;`, calls; integers and string literals; + - * / % < > <= >=
 * == !=.  Built-ins: print(e...) (one write(2) a call), sleep(ms).
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mini_probes.h"

/* ---------------------------------------------------------------- syntax */

enum { N_NUM, N_STR, N_VAR, N_CALL, N_BIN, N_DECL, N_SET, N_IF, N_WHILE, N_RET, N_EXPR, N_BLOCK };

typedef struct node {
	int kind, op, line;
	int64_t num;
	char *name; /* variable, function, string */
	struct node *a, *b, *c, *next;
} node_t;

typedef struct func {
	char *name, *file;
	int line, nparams;
	char *params[8];
	node_t *body;
	struct func *next;
} func_t;

static func_t *funcs;
static const char *src, *file;
static int line;
static char err[256];

static void fail(const char *what)
{
	if (err[0] == '\0')
		snprintf(err, sizeof(err), "%s:%d: %s", file, line, what);
}

static void skip(void)
{
	for (;;) {
		while (isspace((unsigned char)*src))
			line += *src++ == '\n';
		if (src[0] == '/' && src[1] == '/')
			while (*src && *src != '\n')
				src++;
		else
			return;
	}
}

static int accept(const char *t)
{
	size_t n = strlen(t);

	skip();
	if (strncmp(src, t, n) != 0 ||
	    (isalpha((unsigned char)t[0]) && isalnum((unsigned char)src[n])))
		return 0;
	src += n;
	return 1;
}

static void expect(const char *t)
{
	if (!accept(t)) {
		char m[64];

		snprintf(m, sizeof(m), "'%s' expected", t);
		fail(m);
	}
}

static char *ident(void)
{
	const char *s;

	skip();
	if (!isalpha((unsigned char)*src) && *src != '_') {
		fail("a name expected");
		return strdup("?");
	}
	for (s = src; isalnum((unsigned char)*src) || *src == '_'; src++)
		;
	return strndup(s, (size_t)(src - s));
}

static node_t *mk(int kind)
{
	node_t *n = calloc(1, sizeof(*n));

	n->kind = kind;
	n->line = line;
	return n;
}

static node_t *expr(void);

static node_t *primary(void)
{
	node_t *n;

	skip();
	if (err[0])
		return mk(N_NUM);
	if (isdigit((unsigned char)*src)) {
		n = mk(N_NUM);
		n->num = strtoll(src, (char **)&src, 10);
		return n;
	}
	if (*src == '"') {
		const char *s = ++src;

		while (*src && *src != '"')
			src++;
		n = mk(N_STR);
		n->name = strndup(s, (size_t)(src - s));
		if (*src == '"')
			src++;
		else
			fail("unterminated string");
		return n;
	}
	if (accept("(")) {
		n = expr();
		expect(")");
		return n;
	}
	n = mk(N_VAR);
	n->name = ident();
	if (accept("(")) {
		node_t **tail = &n->a;

		n->kind = N_CALL;
		while (!err[0] && !accept(")")) {
			*tail = expr();
			tail = &(*tail)->next;
			if (!accept(","))
				expect(")"), tail = NULL;
			if (tail == NULL)
				break;
		}
	}
	return n;
}

static const char *const ops[] = { "<=", ">=", "==", "!=", "<", ">", "+", "-", "*", "/", "%" };
static const int prec[] = { 1, 1, 1, 1, 1, 1, 2, 2, 3, 3, 3 };

static node_t *binary(int min)
{
	node_t *l = primary();

	for (;;) {
		int o = -1;

		skip();
		for (int i = 0; i < 11 && o < 0; i++)
			if (strncmp(src, ops[i], strlen(ops[i])) == 0 && prec[i] >= min)
				o = i;
		if (o < 0 || err[0])
			return l;
		src += strlen(ops[o]);
		node_t *n = mk(N_BIN);
		n->op = o;
		n->a = l;
		n->b = binary(prec[o] + 1);
		l = n;
	}
}

static node_t *expr(void)
{
	return binary(1);
}

static node_t *block(void);

static node_t *stmt(void)
{
	node_t *n;

	if (accept("var")) {
		n = mk(N_DECL);
		n->name = ident();
		expect("=");
		n->a = expr();
	} else if (accept("if")) {
		n = mk(N_IF);
		expect("(");
		n->a = expr();
		expect(")");
		n->b = block();
		if (accept("else"))
			n->c = block();
		return n;
	} else if (accept("while")) {
		n = mk(N_WHILE);
		expect("(");
		n->a = expr();
		expect(")");
		n->b = block();
		return n;
	} else if (accept("return")) {
		n = mk(N_RET);
		n->a = expr();
	} else {
		n = mk(N_EXPR);
		n->a = expr();
		if (n->a->kind == N_VAR && accept("=")) {
			n->kind = N_SET;
			n->name = n->a->name; /* the target's name, its node gone */
			free(n->a);
			n->a = expr();
		}
	}
	expect(";");
	return n;
}

static node_t *block(void)
{
	node_t *b = mk(N_BLOCK), **tail = &b->a;

	expect("{");
	while (!err[0] && !accept("}")) {
		skip();
		if (*src == '\0') {
			fail("'}' expected");
			break;
		}
		*tail = stmt();
		tail = &(*tail)->next;
	}
	return b;
}

/* Parse the file at path: 0, or -1 with err set. */
static int compile(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len;

	MINI_COMPILE_START(path);
	err[0] = '\0';
	if (f == NULL || (buf = calloc(1, 1 << 20)) == NULL) {
		snprintf(err, sizeof(err), "%s: cannot read it", path);
		if (f != NULL)
			fclose(f);
		MINI_COMPILE_DONE(path, 1);
		return -1;
	}
	len = fread(buf, 1, (1 << 20) - 1, f);
	fclose(f);
	buf[len] = '\0';
	src = buf, file = path, line = 1;
	while (!err[0]) {
		func_t *fn = calloc(1, sizeof(*fn));

		skip();
		if (*src == '\0') {
			free(fn);
			break;
		}
		expect("function");
		fn->line = line;
		fn->file = (char *)path;
		fn->name = ident();
		expect("(");
		while (!err[0] && !accept(")")) {
			if (fn->nparams < 8)
				fn->params[fn->nparams++] = ident();
			if (!accept(",")) {
				expect(")");
				break;
			}
		}
		fn->body = block();
		fn->next = funcs;
		funcs = fn;
	}
	free(buf); /* the tree holds copies of what it needs */
	MINI_COMPILE_DONE(path, err[0] != '\0');
	return err[0] ? -1 : 0;
}

static void free_node(node_t *n)
{
	while (n != NULL) {
		node_t *next = n->next;

		free(n->name);
		free_node(n->a);
		free_node(n->b);
		free_node(n->c);
		free(n);
		n = next;
	}
}

static void free_funcs(void)
{
	while (funcs != NULL) {
		func_t *next = funcs->next;

		free(funcs->name);
		for (int i = 0; i < funcs->nparams; i++)
			free(funcs->params[i]);
		free_node(funcs->body);
		free(funcs);
		funcs = next;
	}
}

/* ---------------------------------------------------------------- running */

typedef struct frame {
	const char *names[32];
	int64_t vals[32];
	int n;
} frame_t;

static int depth;

static int64_t *var(frame_t *fr, const char *name)
{
	for (int i = fr->n - 1; i >= 0; i--)
		if (strcmp(fr->names[i], name) == 0)
			return &fr->vals[i];
	return NULL;
}

static int64_t call(const char *name, int64_t *args, int nargs, int at);

static int64_t eval(frame_t *fr, node_t *n)
{
	int64_t a, b, *v;

	if (err[0])
		return 0;
	switch (n->kind) {
	case N_NUM: return n->num;
	case N_STR: return 0;
	case N_VAR:
		if ((v = var(fr, n->name)) == NULL) {
			line = n->line;
			fail("undefined variable");
			return 0;
		}
		return *v;
	case N_CALL: {
		int64_t args[8];
		int k = 0;

		if (strcmp(n->name, "print") == 0) {
			char out[512];
			size_t len = 0;

			for (node_t *x = n->a; x != NULL && len < sizeof(out) - 32; x = x->next)
				len += (size_t)(x->kind == N_STR
						    ? snprintf(out + len, sizeof(out) - len, "%s",
							       x->name)
						    : snprintf(out + len, sizeof(out) - len, "%lld",
							       (long long)eval(fr, x)));
			out[len++] = '\n';
			return err[0] || write(1, out, len) < 0 ? -1 : 0;
		}
		for (node_t *x = n->a; x != NULL && k < 8; x = x->next)
			args[k++] = eval(fr, x);
		if (strcmp(n->name, "sleep") == 0) {
			struct timespec ts = { args[0] / 1000, (args[0] % 1000) * 1000000 };

			return nanosleep(&ts, NULL);
		}
		return call(n->name, args, k, n->line);
	}
	case N_BIN:
		a = eval(fr, n->a);
		b = eval(fr, n->b);
		switch (n->op) {
		case 0: return a <= b;
		case 1: return a >= b;
		case 2: return a == b;
		case 3: return a != b;
		case 4: return a < b;
		case 5: return a > b;
		case 6: return a + b;
		case 7: return a - b;
		case 8: return a * b;
		default:
			if (b == 0) {
				line = n->line;
				fail("division by zero");
				return 0;
			}
			return n->op == 9 ? a / b : a % b;
		}
	}
	return 0;
}

/* Run a statement list: 1 when it returned (*ret), else 0. */
static int exec(frame_t *fr, node_t *n, int64_t *ret)
{
	for (; n != NULL && !err[0]; n = n->next) {
		int64_t *v;

		switch (n->kind) {
		case N_DECL:
			if (fr->n == 32) {
				fail("too many variables");
				return 1;
			}
			fr->names[fr->n] = n->name;
			fr->vals[fr->n++] = eval(fr, n->a);
			break;
		case N_SET:
			if ((v = var(fr, n->name)) == NULL) {
				line = n->line;
				fail("undefined variable");
				return 1;
			}
			*v = eval(fr, n->a);
			break;
		case N_IF:
			if (eval(fr, n->a) ? exec(fr, n->b->a, ret)
					   : n->c && exec(fr, n->c->a, ret))
				return 1;
			break;
		case N_WHILE:
			while (!err[0] && eval(fr, n->a))
				if (exec(fr, n->b->a, ret))
					return 1;
			break;
		case N_RET: *ret = eval(fr, n->a); return 1;
		default: (void)eval(fr, n->a); break;
		}
	}
	return 0;
}

static int64_t call(const char *name, int64_t *args, int nargs, int at)
{
	func_t *fn = funcs;
	frame_t fr = { .n = 0 };
	int64_t ret = 0;

	while (fn != NULL && strcmp(fn->name, name) != 0)
		fn = fn->next;
	if (fn == NULL || nargs != fn->nparams || depth > 10000) {
		line = at;
		fail(fn == NULL	     ? "undefined function"
		     : depth > 10000 ? "too deep"
				     : "wrong arguments");
		return 0;
	}
	for (int i = 0; i < nargs; i++) {
		fr.names[i] = fn->params[i];
		fr.vals[i] = args[i];
	}
	fr.n = nargs;
	depth++;
	MINI_FUNCTION_ENTRY(fn->name, fn->file, fn->line);
	(void)exec(&fr, fn->body->a, &ret);
	MINI_FUNCTION_RETURN(fn->name, fn->file, fn->line);
	depth--;
	return ret;
}

int main(int argc, char **argv)
{
	int n = 1, first = 1, status = 0;

	if (argc > 2 && strcmp(argv[1], "-n") == 0)
		n = atoi(argv[2]), first = 3;
	if (first >= argc) {
		fprintf(stderr, "usage: mini [-n REQUESTS] FILE...\n");
		return 2;
	}
	for (int id = 1; id <= n; id++) {
		int st = 0;

		MINI_REQUEST_START(id, argv[first]); /* it compiles its files afresh */
		for (int i = first; i < argc && st == 0; i++)
			st = compile(argv[i]) != 0;
		if (st == 0) {
			(void)call("main", NULL, 0, 0);
			st = err[0] != '\0';
		}
		if (st)
			fprintf(stderr, "mini: %s\n", err);
		MINI_REQUEST_DONE(id, argv[first], st);
		free_funcs();
		status |= st;
		err[0] = '\0';
	}
	return status;
}
