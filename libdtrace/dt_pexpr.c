/*
 * dt_pexpr.c -- the D parser, part two: expressions, statements and probe
 * clauses.  (Declarations are in dt_parse.c.)
 *
 * Expressions follow C's precedence and associativity, with D's ^^ between
 * && and ||, and no comma operator.  Binary levels are parsed by precedence
 * climbing, so adding an operator is one table line.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dt_impl.h"

#define TOK (pcb->pcb_tok)

dt_node_t *dt_node_alloc(dt_pcb_t *pcb, dt_nkind_t kind, const dt_loc_t *loc)
{
	dt_node_t *n = dt_palloc(pcb, sizeof(*n));

	n->dn_kind = kind;
	n->dn_loc = *loc;
	return n;
}

static const char *ident(dt_pcb_t *pcb, const char *what)
{
	const char *s;

	if (TOK.tk_kind != T_IDENT)
		dt_syntax(pcb, what);
	s = TOK.tk_str;
	dt_lex_next(pcb);
	return s;
}

/* ---------------------------------------------------------------- macros */

/*
 * How DTrace reads a macro argument's text: an integer (with an optional
 * sign), an identifier, or else a string (surrounding quotes removed).
 */
typedef enum { MACRO_INT, MACRO_IDENT, MACRO_STRING } macro_kind_t;

static macro_kind_t classify(const char *s, int64_t *v, bool *overflow)
{
	const char *p = s;
	char *end;

	*overflow = false;
	if (*p == '+' || *p == '-')
		p++;
	if (isdigit((unsigned char)*p)) {
		uint64_t u;

		errno = 0;
		u = strtoull(p, &end, 0);
		if (*end == '\0') {
			*overflow =
			    errno != 0 || (s[0] == '-' ? u > (uint64_t)INT64_MAX + 1 : false);
			*v = s[0] == '-' ? (int64_t)(0 - u) : (int64_t)u;
			return MACRO_INT;
		}
	}
	if (isalpha((unsigned char)s[0]) || s[0] == '_') {
		for (p = s; *p && (isalnum((unsigned char)*p) || *p == '_'); p++)
			;
		if (*p == '\0')
			return MACRO_IDENT;
	}
	return MACRO_STRING;
}

/*
 * $1..$n, $$1..$$n and the macro variables.  $n takes the form its text
 * has (see classify); $$n is always a string.  With -x defaultargs, an
 * argument not given is 0 (or "" for $$n).
 */
static const char *macro_text(dt_pcb_t *pcb, const dt_loc_t *loc, const char *name, bool str,
			      char *buf, size_t buflen)
{
	const char *val = NULL;

	if (isdigit((unsigned char)name[0])) {
		char *end;
		unsigned long i = strtoul(name, &end, 10);

		if (*end != '\0')
			dt_cerror(pcb, loc, "D_MACRO_UNDEF", "invalid macro argument $%s", name);
		if (i < 64)
			pcb->pcb_macros_used |= 1ULL << i;
		if (i < (unsigned long)pcb->pcb_argc)
			val = pcb->pcb_argv[i];
		else if (dt_option_isset(pcb->pcb_hdl, "defaultargs"))
			val = str ? "" : "0";
		else
			dt_cerror(pcb, loc, "D_MACRO_UNDEF", "macro argument %s$%s is not defined",
				  str ? "$" : "", name);
	} else {
		static const char *const vars[] = { "pid",    "ppid",	"pgid",	 "sid",
						    "uid",    "euid",	"gid",	 "egid",
						    "projid", "taskid", "target" };
		long v = -1;

		for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
			if (strcmp(name, vars[i]) != 0)
				continue;
			switch (i) {
			case 0: v = (long)getpid(); break;
			case 1: v = (long)getppid(); break;
			case 2: v = (long)getpgid(0); break;
			case 3: v = (long)getsid(0); break;
			case 4: v = (long)getuid(); break;
			case 5: v = (long)geteuid(); break;
			case 6: v = (long)getgid(); break;
			case 7: v = (long)getegid(); break;
			case 8:
			case 9: v = 0; break; /* no projects or tasks on Linux */
			default: v = (long)pcb->pcb_hdl->dt_target; break; /* 0 without -c/-p */
			}
		}
		if (v < 0)
			dt_cerror(pcb, loc, "D_MACRO_UNDEF", "macro variable %s$%s is not defined",
				  str ? "$" : "", name);
		snprintf(buf, buflen, "%ld", v);
		val = buf;
	}
	return val;
}

/*
 * A probe description with its macros replaced, as DTrace expands them
 * when it compiles: "pid$target:a.out::entry", "$1:::".
 */
static const char *pdesc_text(dt_pcb_t *pcb, const dt_token_t *t)
{
	const char *in = t->tk_str;
	char out[1024], buf[32], name[64];
	size_t o = 0;

	if (strchr(in, '$') == NULL)
		return in;
	while (*in != '\0') {
		const char *val;
		size_t n = 0, len;

		if (*in != '$') {
			if (o + 1 >= sizeof(out))
				break;
			out[o++] = *in++;
			continue;
		}
		in++;
		while ((isalnum((unsigned char)in[n]) || in[n] == '_') && n + 1 < sizeof(name))
			n++;
		memcpy(name, in, n);
		name[n] = '\0';
		in += n;
		if (n == 0)
			dt_cerror(pcb, &t->tk_loc, "D_PDESC_INVAL",
				  "invalid probe description \"%s\": '$' without a macro name",
				  t->tk_str);
		val = macro_text(pcb, &t->tk_loc, name, false, buf, sizeof(buf));
		if (o + (len = strlen(val)) >= sizeof(out))
			break;
		memcpy(out + o, val, len);
		o += len;
	}
	if (*in != '\0')
		dt_cerror(pcb, &t->tk_loc, "D_PDESC_INVAL",
			  "invalid probe description \"%s\": too long", t->tk_str);
	return dt_arena_strndup(pcb->pcb_arena, out, o);
}

static dt_node_t *macro(dt_pcb_t *pcb)
{
	const dt_token_t *t = &TOK;
	bool str = t->tk_kind == T_MACSTR, overflow;
	const char *name = t->tk_str, *val;
	char buf[32];
	dt_node_t *n;
	int64_t iv = 0;

	val = macro_text(pcb, &t->tk_loc, name, str, buf, sizeof(buf));
	if (str) {
		n = dt_node_alloc(pcb, DT_N_STRING, &t->tk_loc);
		n->dn_string = dt_arena_strndup(pcb->pcb_arena, val, strlen(val));
		n->dn_strlen = strlen(val);
	} else {
		switch (classify(val, &iv, &overflow)) {
		case MACRO_INT:
			if (overflow)
				dt_cerror(pcb, &t->tk_loc, "D_MACRO_OFLOW",
					  "macro argument $%s is too large for an integer", name);
			n = dt_node_alloc(pcb, DT_N_INT, &t->tk_loc);
			if (iv < 0) { /* a negative value: unary minus on its magnitude */
				dt_node_t *m = dt_node_alloc(pcb, DT_N_INT, &t->tk_loc);

				m->dn_value = (uint64_t)0 - (uint64_t)iv;
				n->dn_kind = DT_N_UNARY;
				n->dn_op = T_MINUS;
				n->dn_left = m;
				n->dn_depth = n->dn_height = 1;
			} else {
				n->dn_value = (uint64_t)iv;
			}
			break;
		case MACRO_IDENT:
			n = dt_node_alloc(pcb, DT_N_IDENT, &t->tk_loc);
			n->dn_name = dt_arena_strndup(pcb->pcb_arena, val, strlen(val));
			break;
		default: {
			size_t len = strlen(val);

			if (len >= 2 && val[0] == '"' && val[len - 1] == '"') {
				val++;
				len -= 2;
			}
			n = dt_node_alloc(pcb, DT_N_STRING, &t->tk_loc);
			n->dn_string = dt_arena_strndup(pcb->pcb_arena, val, len);
			n->dn_strlen = len;
			break;
		}
		}
	}
	if ((n->dn_kind == DT_N_STRING && n->dn_string == NULL) ||
	    (n->dn_kind == DT_N_IDENT && n->dn_name == NULL))
		dt_cnomem(pcb);
	dt_lex_next(pcb);
	return n;
}

/* ---------------------------------------------------------------- expressions */

static dt_node_t *unary(dt_pcb_t *);
dt_node_t *dt_parse_comma(dt_pcb_t *);

/*
 * Expression trees are walked recursively by the checker and the code
 * generator: bound how deeply they nest (and the parser's own recursion)
 * so that no input can exhaust the stack.  A left-associative chain of one
 * operator level (a || b || c ..., a + b - c ...) is parsed by a loop and
 * is flat however long it is, as generated predicates are: its links do
 * not count as nesting (dn_depth).  The passes that recurse along left
 * operands (the code generator) still see its length: the height of the
 * tree (dn_height) has a limit of its own, above what a clause can run (a
 * 2,000-term || chain is past the 32767 instructions BPF jumps reach).
 */
#define DT_MAXEXPRDEPTH	 200
#define DT_MAXEXPRHEIGHT 10240

static void too_deep(dt_pcb_t *pcb, const dt_loc_t *loc)
{
	dt_cerror(pcb, loc, "D_SYNTAX", "expression nests more than %d levels deep",
		  DT_MAXEXPRDEPTH);
}

/*
 * Set n's depth and height from its operands'.  A link of a flat chain (n's
 * left operand is the chain so far) is as deep as the deepest operand in
 * the chain, and one deeper than its right operand only.
 */
static dt_node_t *grow(dt_pcb_t *pcb, dt_node_t *n, bool link)
{
	const dt_node_t *kids[3] = { n->dn_left, n->dn_right, n->dn_cond };
	int d = 0, h = 0;

	for (int i = 0; i < 3; i++) {
		if (kids[i] == NULL)
			continue;
		if (kids[i]->dn_depth + (link && i == 0 ? 0 : 1) > d)
			d = kids[i]->dn_depth + (link && i == 0 ? 0 : 1);
		if (kids[i]->dn_height + 1 > h)
			h = kids[i]->dn_height + 1;
	}
	for (const dt_node_t *a = n->dn_args; a != NULL; a = a->dn_next) {
		if (a->dn_depth + 1 > d)
			d = a->dn_depth + 1;
		if (a->dn_height + 1 > h)
			h = a->dn_height + 1;
	}
	n->dn_depth = d > 0 ? d : 1;
	n->dn_height = h > 0 ? h : 1;
	if (n->dn_depth > DT_MAXEXPRDEPTH)
		too_deep(pcb, &n->dn_loc);
	if (n->dn_height > DT_MAXEXPRHEIGHT)
		dt_cerror(pcb, &n->dn_loc, "D_SYNTAX",
			  "expression is too long: more than %d operators in a chain",
			  DT_MAXEXPRHEIGHT);
	return n;
}

static dt_node_t *deepen(dt_pcb_t *pcb, dt_node_t *n)
{
	return grow(pcb, n, false);
}

static void enter(dt_pcb_t *pcb)
{
	if (++pcb->pcb_depth > DT_MAXEXPRDEPTH)
		too_deep(pcb, &TOK.tk_loc);
}

/* Arguments up to the closing token: "a, b, c" or nothing. */
static dt_node_t *arg_list(dt_pcb_t *pcb, dt_tok_t close)
{
	dt_node_t *head = NULL, **tail = &head;

	if (TOK.tk_kind == close)
		return NULL;
	for (;;) {
		*tail = dt_parse_expr(pcb);
		tail = &(*tail)->dn_next;
		if (!dt_accept(pcb, T_COMMA))
			return head;
	}
}

static dt_node_t *primary(dt_pcb_t *pcb)
{
	dt_loc_t loc = TOK.tk_loc;
	dt_node_t *n;

	switch (TOK.tk_kind) {
	case T_INT:
	case T_CHAR:
		n = dt_node_alloc(pcb, DT_N_INT, &loc);
		n->dn_value = TOK.tk_ival;
		n->dn_intflags = TOK.tk_kind == T_CHAR ? -1 : TOK.tk_flags;
		dt_lex_next(pcb);
		return n;
	case T_STRING:
		/* no concatenation of adjacent literals: D's grammar has none */
		n = dt_node_alloc(pcb, DT_N_STRING, &loc);
		n->dn_string = TOK.tk_str;
		n->dn_strlen = TOK.tk_len;
		dt_lex_next(pcb);
		return n;
	case T_IDENT:
		n = dt_node_alloc(pcb, DT_N_IDENT, &loc);
		n->dn_name = TOK.tk_str;
		dt_lex_next(pcb);
		if (dt_accept(pcb, T_LPAREN)) {
			n->dn_kind = DT_N_CALL;
			n->dn_args = arg_list(pcb, T_RPAREN);
			dt_expect(pcb, T_RPAREN);
			deepen(pcb, n);
		}
		return n;
	case T_AGG:
		n = dt_node_alloc(pcb, DT_N_AGG, &loc);
		n->dn_name = TOK.tk_str;
		dt_lex_next(pcb);
		return n;
	case T_SELF:
	case T_THIS:
		n = dt_node_alloc(pcb, TOK.tk_kind == T_SELF ? DT_N_SELF : DT_N_THIS, &loc);
		dt_lex_next(pcb);
		if (TOK.tk_kind != T_ARROW)
			dt_cerror(pcb, &loc, "D_SYNTAX", "%s must be followed by -> and a name",
				  n->dn_kind == DT_N_SELF ? "self" : "this");
		return n;
	case T_MACRO:
	case T_MACSTR: return macro(pcb);
	case T_LPAREN:
		dt_lex_next(pcb);
		n = dt_parse_comma(pcb);
		dt_expect(pcb, T_RPAREN);
		n->dn_flags |= DT_NF_PAREN;
		return n;
	case T_BQUOTE:
		/* `symbol: a kernel or module symbol */
		dt_lex_next(pcb);
		n = dt_node_alloc(pcb, DT_N_SYM, &loc);
		n->dn_name = ident(pcb, "a symbol name after `");
		return n;
	case T_XLATE:
		dt_lex_next(pcb);
		n = dt_node_alloc(pcb, DT_N_XLATE, &loc);
		dt_expect(pcb, T_LT);
		n->dn_type = dt_parse_type_name(pcb);
		dt_expect(pcb, T_GT);
		dt_expect(pcb, T_LPAREN);
		n->dn_left = dt_parse_expr(pcb);
		dt_expect(pcb, T_RPAREN);
		return deepen(pcb, n);
	case T_OFFSETOF:
		dt_lex_next(pcb);
		n = dt_node_alloc(pcb, DT_N_OFFSETOF, &loc);
		dt_expect(pcb, T_LPAREN);
		n->dn_type = dt_parse_type_name(pcb);
		dt_expect(pcb, T_COMMA);
		n->dn_name = ident(pcb, "a member name");
		dt_expect(pcb, T_RPAREN);
		return n;
	default: dt_syntax(pcb, NULL);
	}
}

static dt_node_t *postfix(dt_pcb_t *pcb, dt_node_t *n)
{
	for (;;) {
		dt_loc_t loc = TOK.tk_loc;
		dt_node_t *p;

		switch (TOK.tk_kind) {
		case T_LBRACKET:
			dt_lex_next(pcb);
			p = dt_node_alloc(pcb, DT_N_INDEX, &loc);
			p->dn_left = n;
			p->dn_args = arg_list(pcb, T_RBRACKET);
			if (p->dn_args == NULL)
				dt_syntax(pcb, "an index");
			dt_expect(pcb, T_RBRACKET);
			break;
		case T_DOT:
		case T_ARROW:
			p = dt_node_alloc(pcb, DT_N_MEMBER, &loc);
			p->dn_op = TOK.tk_kind;
			dt_lex_next(pcb);
			p->dn_left = n;
			p->dn_name = ident(pcb, "a member name");
			break;
		case T_LPAREN:
			/* (name)(args) calls name, as in C; D calls nothing through a pointer */
			if (n->dn_kind != DT_N_IDENT)
				dt_cerror(pcb, &loc, "D_FUNC_IDENT",
					  "function designator is not of function type");
			dt_lex_next(pcb);
			p = n;
			p->dn_kind = DT_N_CALL;
			p->dn_flags &= ~DT_NF_PAREN;
			p->dn_args = arg_list(pcb, T_RPAREN);
			dt_expect(pcb, T_RPAREN);
			break;
		case T_INC:
		case T_DEC:
			p = dt_node_alloc(pcb, DT_N_POSTFIX, &loc);
			p->dn_op = TOK.tk_kind;
			p->dn_left = n;
			dt_lex_next(pcb);
			break;
		default: return n;
		}
		n = deepen(pcb, p);
	}
}

/* A parenthesized type name ahead? (after '(') */
static bool type_ahead(dt_pcb_t *pcb)
{
	return dt_parse_is_type(pcb, dt_lex_peek(pcb));
}

static dt_node_t *unary_(dt_pcb_t *pcb);

static dt_node_t *unary(dt_pcb_t *pcb)
{
	dt_node_t *n;

	enter(pcb);
	n = unary_(pcb);
	pcb->pcb_depth--;
	return n;
}

static dt_node_t *unary_(dt_pcb_t *pcb)
{
	dt_loc_t loc = TOK.tk_loc;
	dt_node_t *n;

	switch (TOK.tk_kind) {
	case T_INC:
	case T_DEC:
	case T_PLUS:
	case T_MINUS:
	case T_BANG:
	case T_TILDE:
	case T_STAR:
	case T_AMP:
		n = dt_node_alloc(pcb, DT_N_UNARY, &loc);
		n->dn_op = TOK.tk_kind;
		dt_lex_next(pcb);
		n->dn_left = unary(pcb);
		return deepen(pcb, n);
	case T_SIZEOF:
		dt_lex_next(pcb);
		n = dt_node_alloc(pcb, DT_N_SIZEOF, &loc);
		if (TOK.tk_kind == T_LPAREN && type_ahead(pcb)) {
			dt_lex_next(pcb);
			n->dn_type = dt_parse_type_name(pcb);
			dt_expect(pcb, T_RPAREN);
		} else {
			n->dn_left = unary(pcb);
		}
		return deepen(pcb, n);
	case T_STRINGOF:
		dt_lex_next(pcb);
		n = dt_node_alloc(pcb, DT_N_STRINGOF, &loc);
		n->dn_left = unary(pcb);
		return deepen(pcb, n);
	case T_LPAREN:
		if (type_ahead(pcb)) {
			dt_lex_next(pcb);
			n = dt_node_alloc(pcb, DT_N_CAST, &loc);
			n->dn_type = dt_parse_type_name(pcb);
			if (dt_type_resolve(n->dn_type)->dtt_kind == DT_TK_FUNC) {
				char name[128];

				dt_type_name(n->dn_type, name, sizeof(name));
				dt_cerror(pcb, &loc, "D_CAST_INVAL",
					  "invalid cast expression: to function type \"%s\"", name);
			}
			dt_expect(pcb, T_RPAREN);
			n->dn_left = unary(pcb);
			return deepen(pcb, n);
		}
		/* FALLTHROUGH */
	default: return postfix(pcb, primary(pcb));
	}
}

/* Binary operators, loosest first; all associate to the left. */
static int precedence(dt_tok_t t)
{
	switch (t) {
	case T_LOR: return 1;
	case T_LXOR: return 2;
	case T_LAND: return 3;
	case T_BAR: return 4;
	case T_XOR: return 5;
	case T_AMP: return 6;
	case T_EQEQ:
	case T_NE: return 7;
	case T_LT:
	case T_GT:
	case T_LE:
	case T_GE: return 8;
	case T_SHL:
	case T_SHR: return 9;
	case T_PLUS:
	case T_MINUS: return 10;
	case T_STAR:
	case T_SLASH:
	case T_PERCENT: return 11;
	default: return 0;
	}
}

/*
 * Precedence climbing: the operators of one level and up, left to right.
 * Recursion is only for a tighter level on the right (at most one frame a
 * level); a run of one level is a loop, a flat chain (see grow()).
 */
static dt_node_t *binary(dt_pcb_t *pcb, int minprec)
{
	dt_node_t *l = unary(pcb);
	int prev = 0;

	for (;;) {
		int p = precedence(TOK.tk_kind);
		dt_node_t *n;

		if (p == 0 || p < minprec)
			return l;
		n = dt_node_alloc(pcb, DT_N_BINARY, &TOK.tk_loc);
		n->dn_op = TOK.tk_kind;
		dt_lex_next(pcb);
		n->dn_left = l;
		n->dn_right = binary(pcb, p + 1);
		/* a link of the chain the last operator began, or a new one on l */
		l = grow(pcb, n, p == prev);
		prev = p;
	}
}

bool dt_tok_is_assign(dt_tok_t t)
{
	switch (t) {
	case T_ASSIGN:
	case T_ADD_EQ:
	case T_SUB_EQ:
	case T_MUL_EQ:
	case T_DIV_EQ:
	case T_MOD_EQ:
	case T_AND_EQ:
	case T_OR_EQ:
	case T_XOR_EQ:
	case T_SHL_EQ:
	case T_SHR_EQ: return true;
	default: return false;
	}
}

/* conditional-expression: the third operand of ?: is one too, not an assignment */
static dt_node_t *conditional(dt_pcb_t *pcb)
{
	dt_node_t *c = binary(pcb, 1), *n;

	if (TOK.tk_kind != T_QUESTION)
		return c;
	n = dt_node_alloc(pcb, DT_N_TERNARY, &TOK.tk_loc);
	dt_lex_next(pcb);
	n->dn_cond = c;
	n->dn_left = dt_parse_comma(pcb);
	dt_expect(pcb, T_COLON);
	enter(pcb);
	n->dn_right = conditional(pcb);
	pcb->pcb_depth--;
	return deepen(pcb, n);
}

/* assignment-expression */
dt_node_t *dt_parse_expr(dt_pcb_t *pcb)
{
	dt_node_t *c, *n;

	enter(pcb);
	c = conditional(pcb);
	/* C's grammar: only a unary expression may be assigned ("a ? b : c = 4" is no assignment) */
	if (dt_tok_is_assign(TOK.tk_kind) && !(c->dn_flags & DT_NF_PAREN) &&
	    (c->dn_kind == DT_N_TERNARY || c->dn_kind == DT_N_BINARY))
		dt_syntax(pcb, NULL);
	if (dt_tok_is_assign(TOK.tk_kind)) {
		/* right associative: a = b = c */
		n = dt_node_alloc(pcb, DT_N_BINARY, &TOK.tk_loc);
		n->dn_op = TOK.tk_kind;
		dt_lex_next(pcb);
		n->dn_left = c;
		n->dn_right = dt_parse_expr(pcb);
		c = deepen(pcb, n);
	}
	pcb->pcb_depth--;
	return c;
}

/* expression: assignment-expressions joined by the comma operator */
dt_node_t *dt_parse_comma(dt_pcb_t *pcb)
{
	dt_node_t *c = dt_parse_expr(pcb);
	bool link = false;

	while (TOK.tk_kind == T_COMMA) {
		dt_node_t *n = dt_node_alloc(pcb, DT_N_BINARY, &TOK.tk_loc);

		n->dn_op = T_COMMA;
		dt_lex_next(pcb);
		n->dn_left = c;
		n->dn_right = dt_parse_expr(pcb);
		c = grow(pcb, n, link);
		link = true;
	}
	return c;
}

/* ---------------------------------------------------------------- clauses */

/*
 * A clause: probe descriptions, an optional predicate between slashes, and
 * a body of statements separated by semicolons.  The lexer makes the '/'
 * that closes a predicate a T_EPRED token (see dt_lex.c).
 */
void dt_parse_clause(dt_pcb_t *pcb)
{
	dt_node_t *c = dt_node_alloc(pcb, DT_N_CLAUSE, &TOK.tk_loc), **tail = &c->dn_pdescs;

	for (;;) {
		dt_node_t *pd;

		if (TOK.tk_kind != T_PSPEC) {
			/* after a ',' the lexer has made any identifier a description */
			dt_syntax(pcb, "a probe description");
		}
		pd = dt_node_alloc(pcb, DT_N_PDESC, &TOK.tk_loc);
		if ((pd->dn_name = pdesc_text(pcb, &TOK)) == NULL)
			dt_cnomem(pcb);
		*tail = pd;
		tail = &pd->dn_next;
		dt_lex_next(pcb);
		if (!dt_accept(pcb, T_COMMA))
			break;
	}
	if (TOK.tk_kind == T_SLASH) {
		pcb->pcb_in_predicate = true;
		dt_lex_next(pcb);
		c->dn_cond = dt_parse_comma(pcb);
		pcb->pcb_in_predicate = false;
		if (TOK.tk_kind != T_EPRED)
			dt_syntax(pcb, "'/' ending the predicate");
		dt_lex_next(pcb);
	}
	if (TOK.tk_kind == T_LBRACE) {
		dt_node_t **st = &c->dn_args;

		dt_lex_next(pcb);
		while (TOK.tk_kind != T_RBRACE) {
			if (dt_accept(pcb, T_SEMI))
				continue;
			*st = dt_parse_comma(pcb);
			st = &(*st)->dn_next;
			if (TOK.tk_kind != T_RBRACE)
				dt_expect(pcb, T_SEMI);
		}
		dt_lex_next(pcb);
	} else if (c->dn_cond == NULL && pcb->pcb_fromfile) {
		/*
		 * A file's clause needs a predicate or actions (illumos
		 * dt_grammar.y probe_definition: a forgotten ',' between
		 * descriptions); a string's may have neither (dtrace -n BEGIN).
		 */
		dt_cerror(pcb, &c->dn_loc, "D_SYNTAX",
			  "expected predicate and/or actions following probe description");
	} else if (TOK.tk_kind != T_EOF && TOK.tk_kind != T_PSPEC && !dt_parse_at_type(pcb) &&
		   TOK.tk_kind != T_SELF && TOK.tk_kind != T_THIS && TOK.tk_kind != T_INLINE &&
		   TOK.tk_kind != T_TRANSLATOR && TOK.tk_kind != T_PROVIDER &&
		   TOK.tk_kind != T_TYPEDEF && TOK.tk_kind != T_PRAGMA) {
		/* without actions (the default action), a clause ends where the next begins */
		dt_syntax(pcb, c->dn_cond != NULL ? "'{'" : "'/', '{' or ','");
	}
	dt_parse_append(pcb, c);
}

void dt_parse_append(dt_pcb_t *pcb, dt_node_t *n)
{
	if (pcb->pcb_lastclause != NULL)
		pcb->pcb_lastclause->dn_next = n;
	else
		pcb->pcb_clauses = n;
	pcb->pcb_lastclause = n;
	pcb->pcb_nclauses += n->dn_kind == DT_N_CLAUSE;
	dt_check_node(pcb, n);
}
