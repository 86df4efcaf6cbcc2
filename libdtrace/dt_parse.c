/*
 * dt_parse.c -- the D parser.
 *
 * Recursive descent over the tokens of dt_lex.c.  A program is a sequence
 * of top-level declarations; today those are provider definitions (what
 * dtrace -h/-G read), typedefs and #pragma D directives.  Probe clauses,
 * inlines, translators and the expression grammar grow here, in this same
 * parser, in later work.  Every error unwinds through dt_cerror() with a
 * tag and the location of the offending token.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dt_impl.h"

#define TOK (pcb->pcb_tok)

bool dt_accept(dt_pcb_t *pcb, dt_tok_t t)
{
	if (TOK.tk_kind != t)
		return false;
	dt_lex_next(pcb);
	return true;
}

/* "syntax error near "x"", with the text of the current token. */
_Noreturn void dt_syntax(dt_pcb_t *pcb, const char *expected)
{
	const dt_token_t *t = &TOK;
	char near[64];
	size_t n;

	if (t->tk_kind == T_EOF) {
		dt_cerror(pcb, &t->tk_loc, "D_SYNTAX", "syntax error near end of input%s%s",
			  expected ? ": expected " : "", expected ? expected : "");
	}
	n = t->tk_end > t->tk_loc.off ? t->tk_end - t->tk_loc.off : 0;
	if (t->tk_kind == T_PRAGMA)
		n = 1;
	if (n >= sizeof(near))
		n = sizeof(near) - 4;
	memcpy(near, pcb->pcb_buf + t->tk_loc.off, n);
	near[n] = '\0';
	for (size_t i = 0; i < n; i++)
		if (!isprint((unsigned char)near[i]))
			near[i] = '?';
	if (t->tk_end - t->tk_loc.off >= sizeof(near))
		strcpy(near + n, "...");
	dt_cerror(pcb, &t->tk_loc, "D_SYNTAX", "syntax error near \"%s\"%s%s", near,
		  expected ? ": expected " : "", expected ? expected : "");
}

void dt_expect(dt_pcb_t *pcb, dt_tok_t t)
{
	char what[32];

	if (dt_accept(pcb, t))
		return;
	snprintf(what, sizeof(what), "'%s'", dt_tok_name(t));
	dt_syntax(pcb, what);
}

/* ---------------------------------------------------------------- types */

/*
 * After a definition's '}' the lexer expects a clause and makes a name a
 * probe description: where a declaration goes on, take it back as a name.
 */
static void pspec_as_ident(dt_pcb_t *pcb)
{
	const char *s = TOK.tk_str;

	if (TOK.tk_kind != T_PSPEC || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return;
	for (const char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return;
	TOK.tk_kind = T_IDENT;
}

static dt_type_t *decl_specifiers(dt_pcb_t *pcb);
static dt_type_t *declarator(dt_pcb_t *pcb, dt_type_t *t, const char **namep, dt_loc_t *locp);

/* { type name; ... }: members laid out as the LP64 C ABI does. */
static void sou_body(dt_pcb_t *pcb, dt_type_t *sou)
{
	dt_tagdef_t *td = sou->dtt_tag;
	dt_member_t **tail = &td->td_members;
	bool is_union = sou->dtt_kind == DT_TK_UNION;
	size_t off = 0, align = 1, size = 0, bitoff = 0;
	dt_loc_t loc = TOK.tk_loc;

	if (++pcb->pcb_depth > 32) /* definitions inside definitions: bound the recursion */
		dt_cerror(pcb, &loc, "D_SYNTAX", "struct and union definitions nest too deeply");
	dt_lex_next(pcb); /* { */
	if (TOK.tk_kind == T_RBRACE)
		dt_syntax(pcb, "a member declaration");
	while (TOK.tk_kind != T_RBRACE) {
		dt_type_t *base = decl_specifiers(pcb);

		for (;;) {
			dt_member_t *m = dt_palloc(pcb, sizeof(*m));
			dt_loc_t mloc;
			size_t msize, malign;

			m->dm_type = declarator(pcb, base, &m->dm_name, &mloc);
			if (m->dm_name == NULL && TOK.tk_kind != T_COLON) /* ": N" pads */
				dt_syntax(pcb, "a member name");
			if (TOK.tk_kind == T_COLON) {
				/* a bit-field: packed into units of its type, as C on x86-64 does */
				dt_loc_t bloc = TOK.tk_loc;
				dt_node_t *w;
				int64_t bits;
				size_t unit;

				dt_lex_next(pcb);
				w = dt_parse_expr(pcb);
				if (!dt_type_is_int(m->dm_type))
					dt_cerror(pcb, &bloc, "D_DECL_BFTYPE",
						  "invalid type for bit-field: %s", m->dm_name);
				if (!dt_node_const(pcb, w, &bits) || bits < 0)
					dt_cerror(
					    pcb, &bloc, "D_DECL_BFCONST",
					    "positive integral constant expression expected as "
					    "bit-field size");
				unit = dt_type_size(m->dm_type);
				m->dm_bits = (int)bits;
				if ((uint64_t)bits > unit * 8)
					dt_cerror(pcb, &bloc, "D_DECL_BFSIZE",
						  "bit-field size %lld exceeds its type's %zu bits",
						  (long long)bits, unit * 8);
				if (!is_union) {
					size_t pos = off * 8 + bitoff;

					/* a field may not straddle a unit of its type */
					if ((pos % (unit * 8)) + (size_t)bits > unit * 8)
						pos =
						    (pos + unit * 8 - 1) / (unit * 8) * (unit * 8);
					m->dm_off = pos / 8;
					m->dm_bitoff = (int)(pos % 8);
					pos += (size_t)bits;
					off = pos / 8;
					bitoff = pos % 8;
					size = off + (bitoff != 0);
				} else {
					size = unit > size ? unit : size;
				}
				align = unit > align ? unit : align;
				goto placed;
			}
			for (const dt_member_t *o = td->td_members; o != NULL && m->dm_name != NULL;
			     o = o->dm_next)
				if (o->dm_name != NULL && strcmp(o->dm_name, m->dm_name) == 0)
					dt_cerror(pcb, &mloc, "D_DECL_IDRED",
						  "member %s is already declared", m->dm_name);
			msize = dt_type_size(m->dm_type);
			/* a function has no size: as DTrace, a void member */
			if (dt_type_resolve(m->dm_type)->dtt_kind == DT_TK_FUNC)
				dt_cerror(pcb, &mloc, "D_DECL_VOIDOBJ",
					  "cannot have function member: %s (declare a pointer to a "
					  "function)",
					  m->dm_name);
			if (msize == 0 || dt_type_is_void(m->dm_type))
				dt_cerror(pcb, &mloc, "D_DECL_INCOMPLETE",
					  "member %s has an incomplete or void type", m->dm_name);
			malign = dt_type_align(m->dm_type);
			if (is_union) {
				m->dm_off = 0;
				size = msize > size ? msize : size;
			} else {
				off += bitoff != 0; /* a whole member after bit-fields */
				bitoff = 0;
				off = (off + malign - 1) / malign * malign;
				m->dm_off = off;
				off += msize;
				size = off;
			}
			align = malign > align ? malign : align;
		placed:
			*tail = m;
			tail = &m->dm_next;
			if (TOK.tk_kind != T_COMMA)
				break;
			dt_lex_next(pcb);
		}
		if (TOK.tk_kind != T_SEMI)
			dt_syntax(pcb, "';' after a member");
		dt_lex_next(pcb);
	}
	dt_lex_next(pcb); /* } */
	pcb->pcb_depth--;
	td->td_size = (size + align - 1) / align * align;
	td->td_align = align;
	td->td_complete = true;
}

/* { NAME [= constant], ... }: the enumerators are integer constants. */
static void enum_body(dt_pcb_t *pcb, dt_type_t *e)
{
	int64_t next = 0;

	dt_lex_next(pcb); /* { */
	while (TOK.tk_kind != T_RBRACE) {
		dt_loc_t loc = TOK.tk_loc;
		const char *name;
		dt_ident_t *id;

		if (TOK.tk_kind != T_IDENT)
			dt_syntax(pcb, "an enumerator");
		name = TOK.tk_str;
		dt_lex_next(pcb);
		if (TOK.tk_kind == T_ASSIGN) {
			dt_node_t *v;

			dt_lex_next(pcb);
			v = dt_parse_expr(pcb);
			if (!dt_node_const(pcb, v, &next))
				dt_cerror(pcb, &v->dn_loc, "D_DECL_ENCONST",
					  "enumerator %s needs an integer constant", name);
		}
		if (next > INT32_MAX || next < INT32_MIN)
			dt_cerror(pcb, &loc, "D_DECL_ENOFLOW", "enumerator %s overflows int", name);
		if (dt_ident_lookup(pcb->pcb_globals, name) != NULL)
			dt_cerror(pcb, &loc, "D_DECL_IDRED", "identifier %s is already declared",
				  name);
		id = dt_ident_add(pcb, pcb->pcb_globals, name, DT_IDENT_ENUM, &loc);
		id->di_value = next;
		id->di_type = e;
		{ /* kept with the type too, for print() to name a value */
			dt_member_t *en = dt_palloc(pcb, sizeof(*en)),
				    **tail = &e->dtt_tag->td_enums;

			while (*tail != NULL)
				tail = &(*tail)->dm_next;
			*en = (dt_member_t){ NULL, name, e, (size_t)next, 0, 0 };
			*tail = en;
		}
		next++;
		if (TOK.tk_kind != T_COMMA)
			break;
		dt_lex_next(pcb);
	}
	if (TOK.tk_kind != T_RBRACE)
		dt_syntax(pcb, "',' or '}'");
	dt_lex_next(pcb);
	e->dtt_tag->td_complete = true;
	e->dtt_tag->td_size = 4;
	e->dtt_tag->td_align = 4;
}

/*
 * Declaration specifiers: qualifiers, base type keywords, struct/union/enum
 * tags, typedef names and D's string.  Returns the type; *locp gets where
 * it started.
 */
static dt_type_t *decl_specifiers(dt_pcb_t *pcb)
{
	int nsigned = 0, nunsigned = 0, nshort = 0, nlong = 0, quals = 0;
	const char *base = NULL; /* char int void float double _Bool string */
	dt_type_t *named = NULL;
	dt_loc_t start = TOK.tk_loc;
	char name[64];

	for (;;) {
		dt_loc_t loc = TOK.tk_loc;
		const char *kw = NULL;

		switch (TOK.tk_kind) {
		case T_CONST: quals |= DT_TF_CONST; break;
		case T_VOLATILE: quals |= DT_TF_VOLATILE; break;
		case T_RESTRICT: break;
		case T_SIGNED: nsigned++; break;
		case T_UNSIGNED: nunsigned++; break;
		case T_SHORT: nshort++; break;
		case T_LONG: nlong++; break;
		case T_CHAR_KW: kw = "char"; break;
		case T_INT_KW: kw = "int"; break;
		case T_VOID: kw = "void"; break;
		case T_FLOAT: kw = "float"; break;
		case T_DOUBLE: kw = "double"; break;
		case T_BOOL: kw = "_Bool"; break;
		case T_STRING_KW: kw = "string"; break;
		case T_STRUCT:
		case T_UNION:
		case T_ENUM: {
			dt_tkind_t k = TOK.tk_kind == T_STRUCT	? DT_TK_STRUCT
				       : TOK.tk_kind == T_UNION ? DT_TK_UNION
								: DT_TK_ENUM;
			const char *tag = NULL;

			if (base != NULL || named != NULL)
				dt_cerror(pcb, &loc, "D_DECL_COMBO", "invalid type combination");
			dt_lex_next(pcb);
			if (TOK.tk_kind == T_IDENT) {
				tag = TOK.tk_str;
				dt_lex_next(pcb);
			} else if (TOK.tk_kind != T_LBRACE) {
				dt_syntax(pcb, k == DT_TK_ENUM ? "an enum tag"
							       : "a struct or union tag");
			}
			named = dt_type_tag(pcb->pcb_types, k, tag);
			if (named == NULL)
				dt_cnomem(pcb);
			/* a tag D has not defined may be the kernel's (struct task_struct) */
			if (TOK.tk_kind != T_LBRACE && tag != NULL &&
			    !dt_type_kernel_tag(pcb->pcb_types, named) &&
			    !named->dtt_tag->td_complete && pcb->pcb_lib != NULL)
				pcb->pcb_hdl->dt_libmiss = true; /* skipped if it fails */
			if (TOK.tk_kind == T_LBRACE) {
				dt_tagdef_t *td = named->dtt_tag;

				if (td->td_btfid != 0 && !td->td_complete) {
					/* D's definition, over a kernel tag nothing has read yet */
					td->td_btfid = 0;
					named->dtt_flags &= ~DT_TF_KERNEL;
				}
				if (td->td_complete && td->td_btfid != 0)
					dt_cerror(pcb, &loc, "D_DECL_TYPERED",
						  "%s %s is already defined by the kernel's types",
						  k == DT_TK_ENUM     ? "enum"
						  : k == DT_TK_STRUCT ? "struct"
								      : "union",
						  tag);
				if (named->dtt_tag->td_complete)
					dt_cerror(pcb, &loc, "D_DECL_TYPERED",
						  "%s %s is already defined at line %u",
						  k == DT_TK_ENUM     ? "enum"
						  : k == DT_TK_STRUCT ? "struct"
								      : "union",
						  tag, named->dtt_tag->td_loc.line);
				named->dtt_tag->td_loc = loc;
				if (k == DT_TK_ENUM)
					enum_body(pcb, named);
				else
					sou_body(pcb, named);
				pspec_as_ident(pcb);
			}
			continue; /* the body or tag was the last token */
		}
		case T_IDENT: {
			dt_type_t *t;

			/* a typedef name, unless a type is already complete */
			if (base != NULL || named != NULL || nshort || nlong || nsigned ||
			    nunsigned)
				goto done;
			t = dt_type_lookup(pcb->pcb_types, TOK.tk_str);
			if (t == NULL) {
				if (quals != 0)
					dt_cerror(pcb, &loc, "D_TYPE_ERR",
						  "unknown type name \"%s\"", TOK.tk_str);
				goto done;
			}
			named = t;
			break;
		}
		default: goto done;
		}
		if (kw != NULL) {
			if (base != NULL || named != NULL)
				dt_cerror(pcb, &loc, "D_DECL_COMBO", "invalid type combination");
			base = kw;
		}
		dt_lex_next(pcb);
	}
done:
	if (named != NULL) {
		if (nshort || nlong || nsigned || nunsigned)
			dt_cerror(pcb, &start, "D_DECL_COMBO", "invalid type combination");
		if ((named = dt_type_qualify(pcb->pcb_types, named, quals)) == NULL)
			dt_cnomem(pcb);
		return named;
	}
	if (base == NULL && !nshort && !nlong && !nsigned && !nunsigned) {
		if (TOK.tk_kind == T_IDENT)
			dt_cerror(pcb, &TOK.tk_loc, "D_TYPE_ERR", "unknown type name \"%s\"",
				  TOK.tk_str);
		dt_syntax(pcb, "a type");
	}
	if (nsigned + nunsigned > 1 || nshort > 1 || nlong > 2 || (nshort && nlong))
		dt_cerror(pcb, &start, "D_DECL_COMBO", "invalid type combination");
	if (base == NULL)
		base = "int";
	if ((nshort || nlong) && strcmp(base, "char") == 0)
		dt_cerror(pcb, &start, "D_DECL_CHARATTR",
			  "attributes 'short' and 'long' may not be used with type char");
	if ((nshort || nlong || nsigned || nunsigned) && strcmp(base, "void") == 0)
		dt_cerror(pcb, &start, "D_DECL_VOIDATTR",
			  "attributes 'signed', 'unsigned', 'short' and 'long' may not be used "
			  "with type void");
	if ((nsigned || nunsigned) && strcmp(base, "int") != 0 && strcmp(base, "char") != 0)
		dt_cerror(pcb, &start, "D_DECL_SIGNINT",
			  "signed or unsigned may only qualify an integer type");
	if ((nshort || nlong) && strcmp(base, "int") != 0 &&
	    !(nlong == 1 && strcmp(base, "double") == 0))
		dt_cerror(pcb, &start, "D_DECL_LONGINT", "short or long may only qualify int%s",
			  nlong == 1 ? " or double" : "");
	if (strcmp(base, "char") == 0) {
		snprintf(name, sizeof(name), "%schar",
			 nunsigned ? "unsigned "
			 : nsigned ? "signed "
				   : "");
	} else if (strcmp(base, "int") == 0) {
		snprintf(name, sizeof(name), "%s%s", nunsigned ? "unsigned " : "",
			 nshort	      ? "short"
			 : nlong == 2 ? "long long"
			 : nlong      ? "long"
				      : "int");
		if (nunsigned && !nshort && !nlong)
			snprintf(name, sizeof(name), "unsigned int");
	} else if (strcmp(base, "double") == 0 && nlong) {
		snprintf(name, sizeof(name), "long double");
	} else {
		snprintf(name, sizeof(name), "%s", base);
	}
	named = dt_type_lookup(pcb->pcb_types, name);
	if (named == NULL) /* every spelling above is a base type */
		dt_cerror(pcb, &start, "D_UNKNOWN", "internal error: no base type %s", name);
	if ((named = dt_type_qualify(pcb->pcb_types, named, quals)) == NULL)
		dt_cnomem(pcb);
	return named;
}

/*
 * Declarators, as C has them: pointers with their qualifiers, a name or a
 * declarator in parentheses, then array dimensions and parameter lists:
 * "int (*fn)(int)", "int (*)[4]", "void (*handlers[4])(void)".  A name is
 * optional (type names, parameters).  A declarator is read into steps
 * (pointer, array, function), then applied to the declaration's base type
 * in C's order: the pointers first, then the suffixes from the right, then
 * what the parentheses held.
 */
#define DT_MAXTYPEDEPTH 32 /* pointer, array, function and typedef levels of one type */

typedef struct dstep {
	dt_tkind_t ds_kind;  /* DT_TK_PTR, DT_TK_ARRAY or DT_TK_FUNC */
	int ds_quals;	     /* pointers */
	size_t ds_nelems;    /* arrays */
	dt_type_t **ds_args; /* functions: parameter types, */
	int ds_nargs;	     /* how many, */
	bool ds_varargs;     /* and whether more follow */
	dt_loc_t ds_loc;
} dstep_t;

/* A declarator being read. */
typedef struct decl {
	int d_depth; /* of the base type, then of each step added */
	const char *d_name;
	dt_loc_t d_nloc;    /* where the name is, or would be */
	dt_node_t **d_keys; /* a variable's associative array keys go here; NULL: no keys */
} decl_t;

static void add_step(dt_pcb_t *pcb, decl_t *d, dstep_t *out, int *n, const dstep_t *s)
{
	if (d->d_depth >= DT_MAXTYPEDEPTH)
		dt_cerror(pcb, &s->ds_loc, "D_DECL_DEPTH", "type nests more than %d levels deep",
			  DT_MAXTYPEDEPTH);
	d->d_depth++;
	out[(*n)++] = *s;
}

/* Bound the recursion of parentheses and parameter lists, over the whole compile. */
static void decl_enter(dt_pcb_t *pcb)
{
	if (++pcb->pcb_ddepth > DT_MAXTYPEDEPTH)
		dt_cerror(pcb, &TOK.tk_loc, "D_DECL_DEPTH",
			  "declarator nests more than %d levels deep", DT_MAXTYPEDEPTH);
}

/* A parameter list, after its '(': "()", "(void)", "(type [name], ... [, ...])". */
static void func_params(dt_pcb_t *pcb, dstep_t *s)
{
	size_t cap = 0;

	decl_enter(pcb);
	s->ds_kind = DT_TK_FUNC;
	while (TOK.tk_kind != T_RPAREN) {
		dt_loc_t loc = TOK.tk_loc;
		const dt_type_t *r;
		const char *name;
		dt_loc_t nloc;
		dt_type_t *t;

		if (dt_accept(pcb, T_ELLIPSIS)) {
			s->ds_varargs = true;
			if (TOK.tk_kind != T_RPAREN)
				dt_syntax(pcb, "')' after '...'");
			break;
		}
		if (!dt_parse_at_type(pcb))
			dt_syntax(pcb, "a parameter type");
		t = declarator(pcb, decl_specifiers(pcb), &name, &nloc);
		r = dt_type_resolve(t);
		if (r->dtt_kind == DT_TK_VOID) {
			if (name != NULL)
				dt_cerror(pcb, &nloc, "D_DECL_PROTO_NAME",
					  "void parameter may not have a name: %s", name);
			if (s->ds_nargs != 0 || TOK.tk_kind != T_RPAREN)
				dt_cerror(pcb, &loc, "D_DECL_PROTO_VOID",
					  "void must be the sole parameter");
			break;
		}
		/* as in C, an array parameter is a pointer, and so is a function */
		if (r->dtt_kind == DT_TK_ARRAY)
			t = r->dtt_ref;
		if (r->dtt_kind == DT_TK_ARRAY || r->dtt_kind == DT_TK_FUNC)
			if ((t = dt_type_pointer(pcb->pcb_types, t)) == NULL)
				dt_cnomem(pcb);
		if ((size_t)s->ds_nargs == cap) {
			dt_type_t **a = dt_palloc(pcb, sizeof(*a) * (cap = cap ? 2 * cap : 4));

			if (s->ds_nargs > 0)
				memcpy(a, s->ds_args, sizeof(*a) * (size_t)s->ds_nargs);
			s->ds_args = a;
		}
		s->ds_args[s->ds_nargs++] = t;
		if (TOK.tk_kind == T_RPAREN)
			break;
		if (TOK.tk_kind != T_COMMA)
			dt_syntax(pcb, "',' or ')'");
		dt_lex_next(pcb);
		if (TOK.tk_kind == T_RPAREN)
			dt_syntax(pcb, "a parameter type");
	}
	dt_lex_next(pcb); /* ) */
	pcb->pcb_ddepth--;
}

/* An associative array's key types, after '[': "type, ...". */
static void assoc_keys(dt_pcb_t *pcb, dt_node_t **kt)
{
	int nkeys = 0;

	for (;;) {
		dt_node_t *k = dt_node_alloc(pcb, DT_N_TYPE, &TOK.tk_loc);

		k->dn_type = dt_parse_type_name(pcb);
		if (++nkeys > DT_MAXPROBEARGS)
			dt_cerror(pcb, &k->dn_loc, "D_ARR_BADREF",
				  "an associative array has at most %d keys", DT_MAXPROBEARGS);
		*kt = k;
		kt = &k->dn_next;
		if (TOK.tk_kind != T_COMMA)
			break;
		dt_lex_next(pcb);
	}
}

/* An array dimension, after the '[' at loc (a variable's: errors at the dimension). */
static size_t array_dim(dt_pcb_t *pcb, const decl_t *d, const dt_loc_t *loc)
{
	dt_loc_t eloc = TOK.tk_loc;
	dt_node_t *e;
	int64_t v;

	if (d->d_keys != NULL)
		loc = &eloc;
	if (TOK.tk_kind == T_RBRACKET && d->d_keys != NULL)
		dt_cerror(pcb, &TOK.tk_loc, "D_DECL_ARRNULL",
			  "array declaration requires array dimension or tuple signature");
	e = dt_parse_expr(pcb);
	if (!dt_node_const(pcb, e, &v) || v <= 0)
		dt_cerror(pcb, loc, "D_DECL_ARRSUB",
			  "positive integral constant expression %sexpected as array declaration "
			  "subscript",
			  d->d_keys != NULL ? "or tuple signature " : "");
	if ((uint64_t)v > UINT32_MAX)
		dt_cerror(pcb, loc, "D_DECL_ARRBIG", "array dimension too large: %lld",
			  (long long)v);
	return (size_t)v;
}

/*
 * Does a '(' where a declarator's name may be open a declarator in
 * parentheses, "(*fn)", rather than a parameter list, "(int)" or "()"?
 */
static bool nested_ahead(dt_pcb_t *pcb)
{
	const dt_token_t *p = dt_lex_peek(pcb);

	switch (p->tk_kind) {
	case T_STAR:
	case T_LPAREN:
	case T_LBRACKET: return true;
	case T_IDENT: return !dt_parse_is_type(pcb, p);
	default: return false;
	}
}

/*
 * One level of a declarator (top: not in parentheses).  Its steps are
 * appended to out[*n] in the order they apply: the pointers, the suffixes
 * from the right (int *a[2][3]: pointer, [3], [2]), then those of the
 * declarator in parentheses.
 */
static void declare_level(dt_pcb_t *pcb, decl_t *d, dstep_t *out, int *n, bool top)
{
	dstep_t inner[DT_MAXTYPEDEPTH];
	int ninner = 0, first;

	while (TOK.tk_kind == T_STAR) {
		dstep_t s = { .ds_kind = DT_TK_PTR, .ds_loc = TOK.tk_loc };

		dt_lex_next(pcb);
		for (;;) {
			if (dt_accept(pcb, T_CONST))
				s.ds_quals |= DT_TF_CONST;
			else if (dt_accept(pcb, T_VOLATILE))
				s.ds_quals |= DT_TF_VOLATILE;
			else if (!dt_accept(pcb, T_RESTRICT))
				break;
		}
		add_step(pcb, d, out, n, &s);
	}
	if (top)
		d->d_nloc = TOK.tk_loc;
	pspec_as_ident(pcb);
	if (TOK.tk_kind == T_IDENT) {
		d->d_name = TOK.tk_str;
		d->d_nloc = TOK.tk_loc;
		dt_lex_next(pcb);
	} else if (TOK.tk_kind == T_LPAREN && nested_ahead(pcb)) {
		decl_enter(pcb);
		dt_lex_next(pcb);
		declare_level(pcb, d, inner, &ninner, false);
		dt_expect(pcb, T_RPAREN);
		pcb->pcb_ddepth--;
	}
	first = *n;
	for (;;) {
		dstep_t s = { .ds_loc = TOK.tk_loc };

		if (dt_accept(pcb, T_LBRACKET)) {
			/*
			 * name[type, ...]: a variable that is an associative array
			 * (of what the rest of the declarator makes: the step right
			 * after the name applies last)
			 */
			if (d->d_keys != NULL && d->d_name != NULL && *n == first && ninner == 0 &&
			    *d->d_keys == NULL && dt_parse_at_type(pcb)) {
				/* int a[int][4]: an array of int[4], as illumos dt_decl_array
				 * moves the dimensions after the signature below it */
				assoc_keys(pcb, d->d_keys);
				dt_expect(pcb, T_RBRACKET);
				continue;
			}
			if (d->d_keys != NULL && dt_parse_at_type(pcb))
				dt_cerror(pcb, &TOK.tk_loc, "D_DECL_DYNOBJ",
					  "cannot declare array of associative arrays");
			if (d->d_depth >= DT_MAXTYPEDEPTH)
				dt_cerror(pcb, &s.ds_loc, "D_DECL_DEPTH",
					  "type nests more than %d levels deep", DT_MAXTYPEDEPTH);
			s.ds_kind = DT_TK_ARRAY;
			s.ds_nelems = array_dim(pcb, d, &s.ds_loc);
			dt_expect(pcb, T_RBRACKET);
		} else if (dt_accept(pcb, T_LPAREN)) {
			func_params(pcb, &s);
		} else {
			break;
		}
		add_step(pcb, d, out, n, &s);
	}
	for (int i = first, j = *n - 1; i < j; i++, j--) {
		dstep_t t = out[i];

		out[i] = out[j];
		out[j] = t;
	}
	for (int i = 0; i < ninner; i++)
		out[(*n)++] = inner[i];
}

/* The type the steps make of t, with C's rules for what arrays and functions may hold. */
static dt_type_t *apply_steps(dt_pcb_t *pcb, dt_type_t *t, const dstep_t *s, int n)
{
	for (int i = 0; i < n; i++) {
		const dt_type_t *r = dt_type_resolve(t);

		switch (s[i].ds_kind) {
		case DT_TK_PTR:
			t = dt_type_pointer(pcb->pcb_types, t);
			if (t != NULL && s[i].ds_quals)
				t = dt_type_qualify(pcb->pcb_types, t, s[i].ds_quals);
			break;
		case DT_TK_ARRAY:
			if (r->dtt_kind == DT_TK_FUNC)
				dt_cerror(pcb, &s[i].ds_loc, "D_DECL_FUNC",
					  "cannot declare an array of functions: use an array of "
					  "pointers to functions");
			t = dt_type_array(pcb->pcb_types, t, s[i].ds_nelems);
			break;
		default:
			if (r->dtt_kind == DT_TK_FUNC || r->dtt_kind == DT_TK_ARRAY)
				dt_cerror(pcb, &s[i].ds_loc, "D_DECL_FUNC",
					  "a function cannot return %s: return a pointer",
					  r->dtt_kind == DT_TK_FUNC ? "a function" : "an array");
			t = dt_type_func(pcb->pcb_types, t, s[i].ds_args, s[i].ds_nargs,
					 s[i].ds_varargs);
			break;
		}
		if (t == NULL)
			dt_cnomem(pcb);
		/* through parameter types too: int (*)(int (*)(int (*)(...))) */
		if (dt_type_depth(t) > DT_MAXTYPEDEPTH)
			dt_cerror(pcb, &s[i].ds_loc, "D_DECL_DEPTH",
				  "type nests more than %d levels deep", DT_MAXTYPEDEPTH);
	}
	return t;
}

/* A declarator applied to t; keys: NULL, or where a variable's associative array keys go. */
static dt_type_t *declarator_keys(dt_pcb_t *pcb, dt_type_t *t, const char **namep, dt_loc_t *locp,
				  dt_node_t **keys)
{
	decl_t d = { .d_depth = dt_type_depth(t), .d_keys = keys };
	dstep_t steps[DT_MAXTYPEDEPTH];
	int n = 0;

	declare_level(pcb, &d, steps, &n, true);
	*namep = d.d_name;
	*locp = d.d_nloc;
	return apply_steps(pcb, t, steps, n);
}

static dt_type_t *declarator(dt_pcb_t *pcb, dt_type_t *t, const char **namep, dt_loc_t *locp)
{
	return declarator_keys(pcb, t, namep, locp, NULL);
}

bool dt_parse_at_type(dt_pcb_t *pcb)
{
	return dt_parse_is_type(pcb, &TOK);
}

/* Does token t begin a type name (a type keyword, a tag keyword or a typedef name)? */
bool dt_parse_is_type(dt_pcb_t *pcb, const dt_token_t *t)
{
	switch (t->tk_kind) {
	case T_CONST:
	case T_VOLATILE:
	case T_RESTRICT:
	case T_SIGNED:
	case T_UNSIGNED:
	case T_SHORT:
	case T_LONG:
	case T_CHAR_KW:
	case T_INT_KW:
	case T_VOID:
	case T_FLOAT:
	case T_DOUBLE:
	case T_BOOL:
	case T_STRING_KW:
	case T_STRUCT:
	case T_UNION:
	case T_ENUM: return true;
	case T_IDENT: return dt_type_lookup(pcb->pcb_types, t->tk_str) != NULL;
	default: return false;
	}
}

/* A type name: specifiers and an abstract declarator, as in casts and sizeof. */
dt_type_t *dt_parse_type_name(dt_pcb_t *pcb)
{
	dt_loc_t loc = TOK.tk_loc, nloc;
	const char *name;
	dt_type_t *t = declarator(pcb, decl_specifiers(pcb), &name, &nloc);

	if (name != NULL)
		dt_cerror(pcb, &nloc, "D_SYNTAX",
			  "syntax error near \"%s\": a type name has no "
			  "declarator name",
			  name);
	(void)loc;
	return t;
}

/* typedef <type> <declarator>; */
static void typedef_decl(dt_pcb_t *pcb)
{
	dt_type_t *t;
	const char *name;
	dt_loc_t loc;

	dt_lex_next(pcb);
	t = declarator(pcb, decl_specifiers(pcb), &name, &loc);
	if (name == NULL)
		dt_syntax(pcb, "a typedef name");
	if (dt_type_depth(t) >= DT_MAXTYPEDEPTH)
		dt_cerror(pcb, &loc, "D_DECL_DEPTH", "type nests more than %d levels deep",
			  DT_MAXTYPEDEPTH);
	switch (dt_type_typedef(pcb->pcb_types, name, t)) {
	case -1: dt_cerror(pcb, &loc, "D_DECL_IDRED", "type \"%s\" is already defined", name);
	case -2: dt_cnomem(pcb);
	default: break;
	}
	dt_expect(pcb, T_SEMI);
}

/* ---------------------------------------------------------------- providers */

char *dt_probe_dname(dt_arena_t *a, const char *name)
{
	size_t n = strlen(name);
	char *d = dt_arena_alloc(a, n + 1), *p = d;

	if (d == NULL)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (name[i] == '_' && name[i + 1] == '_') {
			*p++ = '-';
			i++;
		} else {
			*p++ = name[i];
		}
	}
	*p = '\0';
	return d;
}

/*
 * A parameter list: "()", "(void)" or "(type [name], ...)".  Checks what a
 * probe argument may be.  Returns the count; *argsp gets the array.
 */
static int param_list(dt_pcb_t *pcb, const char *what, const char *probe, dt_probearg_t **argsp)
{
	dt_probearg_t args[DT_MAXPROBEARGS];
	int n = 0;

	dt_expect(pcb, T_LPAREN);
	*argsp = NULL;
	if (dt_accept(pcb, T_RPAREN))
		return 0;
	for (;;) {
		dt_loc_t loc = TOK.tk_loc, nloc;
		const dt_type_t *r;
		const char *name;
		dt_type_t *t;

		if (TOK.tk_kind == T_ELLIPSIS)
			dt_cerror(pcb, &loc, "D_DECL_PROTO_VARARGS",
				  "probe %s cannot have a variable argument list", probe);
		t = declarator(pcb, decl_specifiers(pcb), &name, &nloc);
		r = dt_type_resolve(t);
		if (r->dtt_kind == DT_TK_VOID) {
			if (name != NULL)
				dt_cerror(pcb, &nloc, "D_DECL_PROTO_NAME",
					  "void parameter may not have a name: %s", name);
			if (n != 0 || TOK.tk_kind != T_RPAREN)
				dt_cerror(pcb, &loc, "D_DECL_PROTO_VOID",
					  "void must be the sole parameter of probe %s", probe);
			dt_lex_next(pcb);
			return 0;
		}
		if (r->dtt_kind == DT_TK_ARRAY)
			dt_cerror(pcb, &loc, "D_DECL_PROTO_TYPE",
				  "%s argument %d of probe %s cannot be an array; use a pointer",
				  what, n, probe);
		/* what dtrace -h cannot spell as "type name": pass the address as an integer */
		if (r->dtt_kind == DT_TK_FUNC)
			dt_cerror(pcb, &loc, "D_DECL_PROTO_TYPE",
				  "%s argument %d of probe %s cannot be a function; use uintptr_t",
				  what, n, probe);
		for (const dt_type_t *p = r; p != NULL && p->dtt_kind == DT_TK_PTR;
		     p = dt_type_resolve(p->dtt_ref)) {
			if (dt_type_resolve(p->dtt_ref)->dtt_kind == DT_TK_ARRAY)
				dt_cerror(pcb, &loc, "D_DECL_PROTO_TYPE",
					  "%s argument %d of probe %s points to an array; "
					  "point to its elements",
					  what, n, probe);
			if (dt_type_resolve(p->dtt_ref)->dtt_kind == DT_TK_FUNC)
				dt_cerror(pcb, &loc, "D_DECL_PROTO_TYPE",
					  "%s argument %d of probe %s points to a function; "
					  "use uintptr_t",
					  what, n, probe);
		}
		if ((r->dtt_kind == DT_TK_STRUCT || r->dtt_kind == DT_TK_UNION) &&
		    dt_type_size(r) == 0)
			dt_cerror(pcb, &loc, "D_DECL_INCOMPLETE",
				  "%s argument %d of probe %s has incomplete type; pass a pointer",
				  what, n, probe);
		if (r->dtt_kind == DT_TK_STRUCT || r->dtt_kind == DT_TK_UNION ||
		    (r->dtt_kind == DT_TK_FLOAT && r->dtt_size > 8))
			dt_cerror(pcb, &loc, "D_DECL_PROTO_TYPE",
				  "%s argument %d of probe %s must be an integer, pointer, "
				  "string or double",
				  what, n, probe);
		if (n == DT_MAXPROBEARGS)
			dt_cerror(pcb, &loc, "D_PROV_PRARGLEN",
				  "probe %s %s prototype exceeds %d parameters", probe, what,
				  DT_MAXPROBEARGS);
		args[n].pa_type = t;
		args[n].pa_name = name;
		args[n].pa_loc = loc;
		n++;
		if (dt_accept(pcb, T_RPAREN))
			break;
		dt_expect(pcb, T_COMMA);
	}
	*argsp = dt_palloc(pcb, sizeof(args[0]) * (size_t)n);
	memcpy(*argsp, args, sizeof(args[0]) * (size_t)n);
	return n;
}

/* The C macro suffix of a probe: upper case, "__" folded to "_". */
static void macro_name(const char *name, char *buf, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; name[i] != '\0' && o + 1 < len; i++) {
		if (name[i] == '_' && name[i + 1] == '_')
			i++;
		buf[o++] = (char)toupper((unsigned char)name[i]);
	}
	buf[o] = '\0';
}

/*
 * The names a program declares, checked as they come (in linear time, for
 * files with thousands of probes) against this program's and the handle's
 * earlier programs': "v:prov" providers of earlier programs, "p:prov:probe"
 * probes, "m:MACRO" the macro names of dtrace -h, which must be unique
 * across all providers (equal semaphore names imply equal macros).
 */
typedef struct dt_nameref {
	const dt_provdecl_t *nr_prov;
	const dt_probedecl_t *nr_probe;
} dt_nameref_t;

static char *key(dt_pcb_t *pcb, const char *kind, const char *a, const char *b)
{
	size_t n = strlen(kind) + strlen(a) + (b ? strlen(b) + 1 : 0) + 1;
	char *k = dt_palloc(pcb, n);

	snprintf(k, n, "%s%s%s%s", kind, a, b ? (kind[0] == 'm' ? "_" : ":") : "", b ? b : "");
	return k;
}

static char *macro_key(dt_pcb_t *pcb, const char *prov, const char *probe)
{
	char P[DT_PROVNAMELEN], N[DT_NAMELEN];

	/* as dtrace -h spells them: the provider upper-cased, "__" folded in the probe */
	for (size_t i = 0; i < sizeof(P); i++)
		if ((P[i] = (char)toupper((unsigned char)prov[i])) == '\0')
			break;
	macro_name(probe, N, sizeof(N));
	return key(pcb, "m:", P, N);
}

/* Record a name; returns what held it already, or NULL. */
static const dt_nameref_t *claim(dt_pcb_t *pcb, char *k, const dt_provdecl_t *pv,
				 const dt_probedecl_t *pd)
{
	dt_nameref_t *nr = dt_palloc(pcb, sizeof(*nr));
	const void *old = NULL;

	nr->nr_prov = pv;
	nr->nr_probe = pd;
	switch (dt_strset_add(pcb->pcb_names, k, nr, &old)) {
	case -1: dt_cnomem(pcb);
	case 0: return old;
	default: return NULL;
	}
}

/* Names of the handle's earlier programs, before this one is parsed. */
static void claim_earlier(dt_pcb_t *pcb)
{
	for (dtrace_prog_t *pgp = pcb->pcb_hdl->dt_progs; pgp != NULL; pgp = pgp->dp_next) {
		for (dt_provdecl_t *pv = pgp->dp_providers; pv != NULL; pv = pv->pv_next) {
			claim(pcb, key(pcb, "v:", pv->pv_name, NULL), pv, NULL);
			for (dt_probedecl_t *pd = pv->pv_probes; pd != NULL; pd = pd->pd_next) {
				claim(pcb, key(pcb, "p:", pv->pv_name, pd->pd_name), pv, pd);
				claim(pcb, macro_key(pcb, pv->pv_name, pd->pd_name), pv, pd);
			}
		}
	}
}

/* The native argument that translated argument i takes: by name, else by position. */
int dt_probe_argmap(const dt_probedecl_t *p, int i)
{
	const char *name = p->pd_xargs[i].pa_name;

	if (p->pd_xargs == p->pd_nargs || name == NULL)
		return i;
	for (int k = 0; k < p->pd_nargc; k++)
		if (p->pd_nargs[k].pa_name != NULL && strcmp(p->pd_nargs[k].pa_name, name) == 0)
			return k;
	return i;
}

/*
 * A probe with translated arguments: each output argument takes the native
 * argument of its name (else of its position), and a translator must
 * exist for every one whose type differs (D_PROV_PRXLATOR, as DTrace).
 */
static void check_probe_xlators(dt_pcb_t *pcb, const dt_provdecl_t *pv, const dt_probedecl_t *pd)
{
	for (int i = 0; i < pd->pd_xargc; i++) {
		const dt_type_t *to = pd->pd_xargs[i].pa_type, *from;
		int k = dt_probe_argmap(pd, i);

		if (k >= pd->pd_nargc)
			dt_cerror(pcb, &pd->pd_xargs[i].pa_loc, "D_PROV_PRXLATOR",
				  "probe %s:%s output argument %d has no native argument to "
				  "translate",
				  pv->pv_name, pd->pd_name, i);
		from = pd->pd_nargs[k].pa_type;
		if (!dt_type_compatible(to, from) && dt_find_xlator(pcb, from, to) == NULL)
			dt_cerror(pcb, &pd->pd_xargs[i].pa_loc, "D_PROV_PRXLATOR",
				  "translator for %s:%s output argument %d from native argument %d "
				  "is not defined",
				  pv->pv_name, pd->pd_name, i, k);
	}
}

static void probe_decl(dt_pcb_t *pcb, dt_provdecl_t *pv)
{
	dt_probedecl_t *pd = dt_palloc(pcb, sizeof(*pd));
	const dt_nameref_t *o;
	char *mk;

	dt_lex_next(pcb); /* probe */
	if (TOK.tk_kind != T_IDENT)
		dt_syntax(pcb, "a probe name");
	pd->pd_name = TOK.tk_str;
	pd->pd_loc = TOK.tk_loc;
	if (strlen(pd->pd_name) >= DT_NAMELEN)
		dt_cerror(pcb, &pd->pd_loc, "D_PROV_BADNAME",
			  "probe name may not exceed %d characters: %s", DT_NAMELEN - 1,
			  pd->pd_name);
	if ((pd->pd_dname = dt_probe_dname(pcb->pcb_arena, pd->pd_name)) == NULL)
		dt_cnomem(pcb);
	if (pd->pd_dname[0] == '-' || pd->pd_dname[strlen(pd->pd_dname) - 1] == '-')
		dt_cerror(pcb, &pd->pd_loc, "D_PROV_BADNAME",
			  "probe name may not begin or end with \"__\": %s", pd->pd_name);
	if ((o = claim(pcb, key(pcb, "p:", pv->pv_name, pd->pd_name), pv, pd)) != NULL)
		dt_cerror(pcb, &pd->pd_loc, "D_PROV_PRDUP",
			  "probe %s:%s is already declared at %s:%u", pv->pv_name, pd->pd_name,
			  o->nr_probe->pd_loc.file, o->nr_probe->pd_loc.line);
	mk = macro_key(pcb, pv->pv_name, pd->pd_name);
	if ((o = claim(pcb, mk, pv, pd)) != NULL)
		dt_cerror(pcb, &pd->pd_loc, "D_PROV_PRDUP",
			  "probes %s:%s and %s:%s (%s:%u) would both be the macro %s", pv->pv_name,
			  pd->pd_name, o->nr_prov->pv_name, o->nr_probe->pd_name,
			  o->nr_probe->pd_loc.file, o->nr_probe->pd_loc.line, mk + 2);
	dt_lex_next(pcb);
	pd->pd_nargc = param_list(pcb, "input", pd->pd_name, &pd->pd_nargs);
	if (dt_accept(pcb, T_COLON)) {
		pd->pd_xargc = param_list(pcb, "output", pd->pd_name, &pd->pd_xargs);
		check_probe_xlators(pcb, pv, pd);
	} else {
		pd->pd_xargc = pd->pd_nargc;
		pd->pd_xargs = pd->pd_nargs;
	}
	dt_expect(pcb, T_SEMI);
	if (pv->pv_lastprobe != NULL)
		pv->pv_lastprobe->pd_next = pd;
	else
		pv->pv_probes = pd;
	pv->pv_lastprobe = pd;
	pv->pv_nprobes++;
}

static void provider_decl(dt_pcb_t *pcb)
{
	dtrace_prog_t *pgp = pcb->pcb_prog;
	dt_provdecl_t *pv = NULL, **tail;
	const dt_nameref_t *o;
	dt_loc_t loc;
	const char *name;

	dt_lex_next(pcb); /* provider */
	if (TOK.tk_kind != T_IDENT)
		dt_syntax(pcb, "a provider name");
	name = TOK.tk_str;
	loc = TOK.tk_loc;
	if (strlen(name) >= DT_PROVNAMELEN)
		dt_cerror(pcb, &loc, "D_PROV_BADNAME",
			  "provider name may not exceed %d characters: %s", DT_PROVNAMELEN - 1,
			  name);
	if ((o = claim(pcb, key(pcb, "v:", name, NULL), NULL, NULL)) != NULL && o->nr_prov != NULL)
		dt_cerror(pcb, &loc, "D_PROV_INCOMPAT",
			  "provider %s is already declared by another program (%s:%u)", name,
			  o->nr_prov->pv_loc.file, o->nr_prov->pv_loc.line);
	/* declared twice in this program: it gathers the probes of both */
	for (tail = &pgp->dp_providers; *tail != NULL; tail = &(*tail)->pv_next)
		if (strcmp((*tail)->pv_name, name) == 0)
			pv = *tail;
	if (pv == NULL) {
		pv = dt_palloc(pcb, sizeof(*pv));
		pv->pv_name = name;
		pv->pv_loc = loc;
		for (int i = 0; i < 5; i++)
			pv->pv_attr[i] = (dt_attr_t){ 1, 1, 0 }; /* Private/Private/Unknown */
		*tail = pv;
		pgp->dp_nproviders++;
	}
	dt_lex_next(pcb);
	dt_expect(pcb, T_LBRACE);
	while (TOK.tk_kind == T_PROBE)
		probe_decl(pcb, pv);
	if (TOK.tk_kind != T_RBRACE)
		dt_syntax(pcb, "'probe' or '}'");
	dt_lex_next(pcb);
	dt_expect(pcb, T_SEMI);
}

/* ---------------------------------------------------------------- pragmas */

static const char *const stabilities[] = { "Internal", "Private",  "Obsolete", "External",
					   "Unstable", "Evolving", "Stable",   "Standard" };
static const char *const classes[] = { "Unknown", "CPU", "Platform", "Group", "ISA", "Common" };

static int lookup_name(const char *const *names, int n, const char *s, size_t len)
{
	for (int i = 0; i < n; i++)
		if (strlen(names[i]) == len && strncmp(names[i], s, len) == 0)
			return i;
	return -1;
}

/* Split s into whitespace-separated words (at most max); returns the count. */
static int split(char *s, char **w, int max)
{
	int n = 0;

	for (char *p = strtok(s, " \t\r\f\v"); p != NULL; p = strtok(NULL, " \t\r\f\v")) {
		if (n == max)
			return max + 1;
		w[n++] = p;
	}
	return n;
}

/* Parse "Name/Data/Class" into *a. */
static bool parse_attr(const char *s, dt_attr_t *a)
{
	const char *p1 = strchr(s, '/'), *p2 = p1 ? strchr(p1 + 1, '/') : NULL;

	if (p2 == NULL)
		return false;
	a->name = lookup_name(stabilities, 8, s, (size_t)(p1 - s));
	a->data = lookup_name(stabilities, 8, p1 + 1, (size_t)(p2 - p1 - 1));
	a->dclass = lookup_name(classes, 6, p2 + 1, strlen(p2 + 1));
	return a->name >= 0 && a->data >= 0 && a->dclass >= 0;
}

static void pragma_attributes(dt_pcb_t *pcb, const dt_loc_t *loc, char **w, int n)
{
	static const char *const comps[] = { "provider", "module", "function", "name", "args" };
	dt_provdecl_t *pv;
	dt_attr_t a;
	int c;

	/*
	 * attributes <attr> <identifier>: an inline's or type's stability, as
	 * illumos' procfs.d gives curpsinfo's; checked, and not kept (the
	 * stability report of -v is not printed)
	 */
	if (n == 3 && strcmp(w[2], "provider") != 0) {
		if (!parse_attr(w[1], &a))
			dt_cerror(pcb, loc, "D_PRAGMA_INVAL", "invalid attributes \"%s\"", w[1]);
		return;
	}
	/* attributes <attr> provider <name> <component> */
	if (n != 5 || strcmp(w[2], "provider") != 0)
		dt_cerror(pcb, loc, "D_PRAGMA_MALFORM",
			  "malformed #pragma D attributes: expected "
			  "'attributes name/data/class provider NAME component'");
	if (!parse_attr(w[1], &a))
		dt_cerror(pcb, loc, "D_PRAGMA_INVAL", "invalid attributes \"%s\"", w[1]);
	c = lookup_name(comps, 5, w[4], strlen(w[4]));
	if (c < 0)
		dt_cerror(pcb, loc, "D_PRAGMA_INVAL",
			  "invalid provider component \"%s\": expected provider, module, "
			  "function, name or args",
			  w[4]);
	for (pv = pcb->pcb_prog->dp_providers; pv != NULL; pv = pv->pv_next)
		if (strcmp(pv->pv_name, w[3]) == 0)
			break;
	if (pv != NULL) {
		pv->pv_attr[c] = a;
		return;
	}
	/* a provider declared further down: applied at the end (as DTrace defers it) */
	{
		dt_pending_attr_t *pa = dt_palloc(pcb, sizeof(*pa));

		pa->pa_loc = *loc;
		pa->pa_prov = dt_arena_strndup(pcb->pcb_arena, w[3], strlen(w[3]));
		pa->pa_comp = c;
		pa->pa_attr = a;
		pa->pa_next = pcb->pcb_pending;
		pcb->pcb_pending = pa;
	}
}

/* The attribute pragmas that named providers declared after them. */
static void apply_pending(dt_pcb_t *pcb)
{
	for (dt_pending_attr_t *pa = pcb->pcb_pending; pa != NULL; pa = pa->pa_next) {
		dt_provdecl_t *pv;

		for (pv = pcb->pcb_prog->dp_providers; pv != NULL; pv = pv->pv_next)
			if (strcmp(pv->pv_name, pa->pa_prov) == 0)
				break;
		if (pv == NULL)
			dt_cerror(pcb, &pa->pa_loc, "D_PRAGMA_SCOPE",
				  "#pragma D attributes names provider %s, which the program does "
				  "not declare",
				  pa->pa_prov);
		pv->pv_attr[pa->pa_comp] = pa->pa_attr;
	}
}

/*
 * A #pragma D binding version: "major[.minor[.micro]]" in double quotes, each
 * part a number no larger than DTrace's version fields hold (255.4095.4095).
 */
static bool valid_version(const char *q)
{
	static const unsigned max[3] = { 0xFF, 0xFFF, 0xFFF };
	size_t len = strlen(q);
	unsigned part = 0, v = 0;
	bool digits = false;

	if (len < 3 || q[0] != '"' || q[len - 1] != '"')
		return false;
	for (const char *p = q + 1; p < q + len - 1; p++) {
		if (isdigit((unsigned char)*p)) {
			v = v * 10 + (unsigned)(*p - '0');
			if (v > max[part])
				return false;
			digits = true;
		} else if (*p == '.' && digits && part < 2) {
			part++;
			v = 0;
			digits = false;
		} else {
			return false;
		}
	}
	return digits;
}

static bool is_ident(const char *s)
{
	if (!isalpha((unsigned char)s[0]) && s[0] != '_')
		return false;
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/*
 * #pragma D depends_on provider NAME: as DTrace, the provider must exist
 * when the pragma is read.  What this library knows of then: dtrace and
 * profile, the providers this program (up to here) and the handle's
 * earlier programs declare, and the USDT providers of the probe table
 * (the processes running now: myapp1234, by its full name, as DTrace).
 */
static bool provider_known(dt_pcb_t *pcb, const char *name)
{
	dtrace_hdl_t *dtp = pcb->pcb_hdl;
	char *k = dt_palloc(pcb, strlen(name) + 3);

	if (strcmp(name, "dtrace") == 0 || strcmp(name, "profile") == 0)
		return true;
	memcpy(k, "v:", 2);
	memcpy(k + 2, name, strlen(name) + 1);
	if (dt_strset_get(pcb->pcb_names, k) != NULL)
		return true;
	/* the USDT probes of the process the name ends with (dt_prov_usdt.c) */
	if (dt_probe_provide_named(dtp, name, NULL) != 0)
		dt_cnomem(pcb);
	for (size_t i = 0; i < dtp->dt_nprobes; i++)
		if (strcmp(dtp->dt_probes[i].dtpd_provider, name) == 0)
			return true;
	return false;
}

/*
 * #pragma D depends_on module NAME: a module of the probe table (the
 * files of the processes running now that hold probes), or a kernel module
 * loaded now (/sys/module; the kernel spells '-' in its names as '_').
 */
static bool module_known(dt_pcb_t *pcb, const char *name)
{
	dtrace_hdl_t *dtp = pcb->pcb_hdl;
	char path[DT_PROVNAMELEN + 16];
	size_t n = strlen(name);

	/* the USDT probes of every process: a module is any file of one */
	if (dt_probe_provide_named(dtp, NULL, name) != 0)
		dt_cnomem(pcb);
	for (size_t i = 0; i < dtp->dt_nprobes; i++)
		if (strcmp(dtp->dt_probes[i].dtpd_mod, name) == 0)
			return true;
	if (n == 0 || n >= DT_PROVNAMELEN ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyz"
			 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != n)
		return false;
	snprintf(path, sizeof(path), "/sys/module/%s", name);
	for (char *p = path + strlen("/sys/module/"); *p != '\0'; p++)
		if (*p == '-')
			*p = '_';
	return access(path, F_OK) == 0;
}

static void pragma(dt_pcb_t *pcb)
{
	dt_loc_t loc = TOK.tk_loc;
	const char *orig = TOK.tk_str;
	char *text = dt_palloc(pcb, TOK.tk_len + 1), *w[8];
	int n;

	memcpy(text, TOK.tk_str, TOK.tk_len + 1);
	dt_lex_next(pcb);
	n = split(text, w, 7);
	if (n == 0 || strcmp(w[0], "D") != 0) {
		if (n > 0 && strcmp(w[0], "error") == 0)
			dt_cerror(pcb, &loc, "D_PRAGERR", "#pragma error: %s",
				  orig + strspn(orig + 5, " \t") + 5);
		return; /* #pragma ident and others are C's business, as in DTrace */
	}
	if (n < 2)
		return; /* "#pragma D" with no directive: nothing to do, as DTrace */
	if (strcmp(w[1], "attributes") == 0) {
		pragma_attributes(pcb, &loc, w + 1, n - 1);
	} else if (strcmp(w[1], "option") == 0) {
		char *eq;

		if (n != 3)
			dt_cerror(pcb, &loc, "D_PRAGMA_MALFORM",
				  "malformed #pragma D option: expected 'option name[=value]'");
		if ((eq = strchr(w[2], '=')) != NULL)
			*eq++ = '\0';
		/* illumos dt_pragma.c's words, with the value when there is one */
		if (dt_option_set(pcb->pcb_hdl, w[2], eq) != 0) {
			const char *msg = dtrace_errmsg(pcb->pcb_hdl, dtrace_errno(pcb->pcb_hdl));

			if (eq == NULL)
				dt_cerror(pcb, &loc, "D_PRAGMA_OPTSET",
					  "failed to set option '%s': %s", w[2], msg);
			dt_cerror(pcb, &loc, "D_PRAGMA_OPTSET",
				  "failed to set option '%s' to '%s': %s", w[2], eq, msg);
		}
	} else if (strcmp(w[1], "depends_on") == 0) {
		if (n != 4)
			dt_cerror(
			    pcb, &loc, "D_PRAGMA_MALFORM",
			    "malformed #pragma D depends_on: expected 'depends_on class name'");
		if (strcmp(w[2], "library") == 0 && pcb->pcb_lib == NULL)
			dt_cerror(pcb, &loc, "D_PRAGMA_DEPEND",
				  "main program may not explicitly depend on a library");
		if (strcmp(w[2], "library") == 0)
			return; /* the load order (dt_dlib.c) */
		if (strcmp(w[2], "module") != 0 && strcmp(w[2], "provider") != 0)
			dt_cerror(pcb, &loc, "D_PRAGMA_INVAL",
				  "invalid class %s specified by #pragma D depends_on", w[2]);
		if (strcmp(w[2], "provider") == 0 ? !provider_known(pcb, w[3])
						  : !module_known(pcb, w[3]))
			dt_cerror(pcb, &loc, "D_PRAGMA_DEPEND", "program requires %s %s", w[2],
				  w[3]);
	} else if (strcmp(w[1], "binding") == 0) {
		if (n != 4 || w[2][0] != '"' || !is_ident(w[3]))
			dt_cerror(
			    pcb, &loc, "D_PRAGMA_MALFORM",
			    "malformed #pragma D binding: expected 'binding \"version\" name'");
		if (!valid_version(w[2]))
			dt_cerror(pcb, &loc, "D_PRAGMA_INVAL",
				  "invalid version string %s specified by #pragma D binding: "
				  "expected \"major.minor[.micro]\"",
				  w[2]);
	} else {
		dt_cerror(pcb, &loc, "D_PRAGMA_INVAL", "invalid control directive: #pragma D %s",
			  w[1]);
	}
}

/* ---------------------------------------------------------------- declarations */

/*
 * [self|this] type declarator [, declarator]... ;
 * where a declarator may end in [key types] (an associative array) or
 * [N] (a scalar array).  A struct, union or enum definition alone is fine.
 */
static void var_decl(dt_pcb_t *pcb)
{
	dt_tok_t scope = 0;
	dt_type_t *base;

	if (TOK.tk_kind == T_SELF || TOK.tk_kind == T_THIS) {
		scope = TOK.tk_kind;
		dt_lex_next(pcb);
	}
	base = decl_specifiers(pcb);
	if (TOK.tk_kind == T_SEMI && scope == 0) {
		const dt_type_t *r = dt_type_resolve(base);

		/* a struct, union or enum definition alone; "int;" declares nothing */
		if (r->dtt_tag == NULL)
			dt_cerror(pcb, &TOK.tk_loc, "D_DECL_USELESS", "useless declaration");
		dt_lex_next(pcb);
		return;
	}
	for (;;) {
		dt_node_t *d = dt_node_alloc(pcb, DT_N_VARDECL, &TOK.tk_loc);
		const char *pre = scope == T_SELF ? "self->" : scope == T_THIS ? "this->" : "";

		d->dn_op = scope;
		d->dn_type = declarator_keys(pcb, base, &d->dn_name, &d->dn_loc, &d->dn_args);
		if (d->dn_name == NULL)
			dt_syntax(pcb, "a variable name");
		/*
		 * "int f(int);" declares a function, which DTrace takes for an
		 * extern declaration of a kernel symbol: D here has no extern.
		 */
		if (dt_type_resolve(d->dn_type)->dtt_kind == DT_TK_FUNC && scope == 0)
			dt_cerror(pcb, &d->dn_loc, "D_DECL_BADCLASS",
				  "function %s would be an extern declaration, which is not "
				  "supported in D: declare a pointer to a function",
				  d->dn_name);
		if (dt_type_resolve(d->dn_type)->dtt_kind == DT_TK_FUNC)
			dt_cerror(pcb, &d->dn_loc, "D_DECL_VOIDOBJ",
				  "cannot declare function object: %s%s (declare a pointer to a "
				  "function)",
				  pre, d->dn_name);
		dt_parse_append(pcb, d);
		if (TOK.tk_kind != T_COMMA)
			break;
		dt_lex_next(pcb);
	}
	if (TOK.tk_kind != T_SEMI)
		dt_syntax(pcb, "';' after a declaration");
	dt_lex_next(pcb);
}

/* inline type name = expression; */
static void inline_decl(dt_pcb_t *pcb)
{
	dt_node_t *d = dt_node_alloc(pcb, DT_N_INLINE, &TOK.tk_loc);
	dt_loc_t nloc;

	dt_lex_next(pcb);
	d->dn_type = declarator(pcb, decl_specifiers(pcb), &d->dn_name, &nloc);
	if (d->dn_name == NULL)
		dt_syntax(pcb, "an inline name");
	if (pcb->pcb_lib != NULL && strcmp(d->dn_name, "curpsinfo") == 0)
		pcb->pcb_lib->dl_procfs = true;
	d->dn_loc = nloc;
	if (TOK.tk_kind != T_ASSIGN)
		dt_syntax(pcb, "'=' in an inline definition");
	dt_lex_next(pcb);
	d->dn_left = dt_parse_expr(pcb);
	if (TOK.tk_kind != T_SEMI)
		dt_syntax(pcb, "';' after an inline definition");
	dt_lex_next(pcb);
	dt_parse_append(pcb, d);
}

/* translator out-type < in-type name > { member = expression; ... }; */
static void xlator_decl(dt_pcb_t *pcb)
{
	dt_node_t *d = dt_node_alloc(pcb, DT_N_XLATOR, &TOK.tk_loc);
	dt_xlator_t *x = dt_palloc(pcb, sizeof(*x));
	dt_node_t **tail = &x->dx_members;
	dt_loc_t nloc;

	x->dx_loc = TOK.tk_loc;
	dt_lex_next(pcb);
	x->dx_to = dt_parse_type_name(pcb);
	if (TOK.tk_kind != T_LT)
		dt_syntax(pcb, "'<' and the input type");
	dt_lex_next(pcb);
	x->dx_from = declarator(pcb, decl_specifiers(pcb), &x->dx_arg, &nloc);
	if (x->dx_arg == NULL)
		dt_syntax(pcb, "a name for the translator's input");
	if (TOK.tk_kind != T_GT)
		dt_syntax(pcb, "'>'");
	dt_lex_next(pcb);
	if (TOK.tk_kind != T_LBRACE)
		dt_syntax(pcb, "'{'");
	dt_lex_next(pcb);
	while (TOK.tk_kind != T_RBRACE) {
		dt_node_t *m = dt_node_alloc(pcb, DT_N_BINARY, &TOK.tk_loc);

		m->dn_op = T_ASSIGN;
		if (TOK.tk_kind != T_IDENT)
			dt_syntax(pcb, "a member name");
		m->dn_name = TOK.tk_str;
		dt_lex_next(pcb);
		if (TOK.tk_kind != T_ASSIGN)
			dt_syntax(pcb, "'='");
		dt_lex_next(pcb);
		m->dn_right = dt_parse_expr(pcb);
		if (TOK.tk_kind != T_SEMI)
			dt_syntax(pcb, "';'");
		dt_lex_next(pcb);
		*tail = m;
		tail = &m->dn_next;
	}
	dt_lex_next(pcb);
	if (TOK.tk_kind != T_SEMI)
		dt_syntax(pcb, "';' after a translator");
	dt_lex_next(pcb);
	d->dn_xlator = x;
	dt_parse_append(pcb, d);
}

/* ---------------------------------------------------------------- program */

static void top_level(dt_pcb_t *pcb);

/*
 * A file of the D library directory, parsed before the program in the same
 * name spaces: declarations, inlines and translators only.
 */
static void parse_library(dt_pcb_t *pcb, dt_lib_t *lib)
{
	const char *buf = pcb->pcb_buf, *file = pcb->pcb_file;
	size_t len = pcb->pcb_len;
	bool fromfile = pcb->pcb_fromfile;

	pcb->pcb_buf = lib->dl_text;
	pcb->pcb_len = lib->dl_len;
	pcb->pcb_file = lib->dl_path;
	pcb->pcb_fromfile = true;
	pcb->pcb_lib = lib;
	if (lib == pcb->pcb_hdl->dt_libtry)
		pcb->pcb_hdl->dt_libmiss =
		    false; /* what the file tried needs, not the ones before */
	dt_lex_init(pcb);
	dt_lex_next(pcb);
	while (TOK.tk_kind != T_EOF) {
		if (TOK.tk_kind == T_PSPEC)
			dt_cerror(pcb, &TOK.tk_loc, "D_SYNTAX",
				  "probe clauses are not allowed in a library: declarations, "
				  "inlines and translators only");
		top_level(pcb);
	}
	pcb->pcb_lib = NULL;
	pcb->pcb_buf = buf;
	pcb->pcb_len = len;
	pcb->pcb_file = file;
	pcb->pcb_fromfile = fromfile;
}

void dt_parse_program(dt_pcb_t *pcb)
{
	dtrace_hdl_t *dtp = pcb->pcb_hdl;

	if ((pcb->pcb_names = dt_strset_create(pcb->pcb_arena)) == NULL)
		dt_cnomem(pcb);
	claim_earlier(pcb);
	dt_idents_init(pcb);
	for (dt_lib_t *l = dtp->dt_libs; l != NULL; l = l->dl_next) {
		if (l->dl_ok || l == dtp->dt_libtry)
			parse_library(pcb, l);
		if (l == dtp->dt_libtry)
			break;
	}
	dt_lex_init(pcb);
	dt_lex_next(pcb);
	for (;;) {
		if (TOK.tk_kind == T_EOF) {
			apply_pending(pcb);
			pcb->pcb_prog->dp_clauses = pcb->pcb_clauses;
			pcb->pcb_prog->dp_nclauses = pcb->pcb_nclauses;
			dt_check_program(pcb);
			return;
		}
		top_level(pcb);
	}
}

/* One top-level declaration or clause. */
static void top_level(dt_pcb_t *pcb)
{
	{
		switch (TOK.tk_kind) {
		case T_PROVIDER: provider_decl(pcb); break;
		case T_TYPEDEF: typedef_decl(pcb); break;
		case T_PRAGMA: pragma(pcb); break;
		case T_SEMI: dt_lex_next(pcb); break;
		case T_PSPEC: dt_parse_clause(pcb); break;
		case T_INLINE: inline_decl(pcb); break;
		case T_TRANSLATOR: xlator_decl(pcb); break;
		case T_SELF:
		case T_THIS: var_decl(pcb); break;
		case T_EXTERN:
		case T_STATIC:
		case T_REGISTER:
		case T_AUTO:
			dt_cerror(pcb, &TOK.tk_loc, "D_DECL_BADCLASS",
				  "storage class %s is not supported in D",
				  dt_tok_name(TOK.tk_kind));
		default:
			if (dt_parse_at_type(pcb)) {
				var_decl(pcb);
				break;
			}
			dt_syntax(pcb, "a probe description or a declaration");
		}
	}
}
