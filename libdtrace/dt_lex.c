/*
 * dt_lex.c -- the D lexer.
 *
 * Hand-written so that every token carries an exact line and column and so
 * that bad input (stray bytes, unterminated comments or strings, huge
 * numbers, NULs) becomes a tagged diagnostic instead of undefined
 * behaviour.  It understands the line markers cpp writes, so locations
 * stay right with -C.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dt_impl.h"

static const struct {
	const char *name;
	dt_tok_t tok;
} keywords[] = {
	{ "auto", T_AUTO },
	{ "break", T_BREAK },
	{ "case", T_CASE },
	{ "char", T_CHAR_KW },
	{ "const", T_CONST },
	{ "continue", T_CONTINUE },
	{ "counter", T_COUNTER },
	{ "default", T_DEFAULT },
	{ "do", T_DO },
	{ "double", T_DOUBLE },
	{ "else", T_ELSE },
	{ "enum", T_ENUM },
	{ "extern", T_EXTERN },
	{ "float", T_FLOAT },
	{ "for", T_FOR },
	{ "goto", T_GOTO },
	{ "if", T_IF },
	{ "import", T_IMPORT },
	{ "inline", T_INLINE },
	{ "int", T_INT_KW },
	{ "long", T_LONG },
	{ "offsetof", T_OFFSETOF },
	{ "probe", T_PROBE },
	{ "provider", T_PROVIDER },
	{ "register", T_REGISTER },
	{ "restrict", T_RESTRICT },
	{ "return", T_RETURN },
	{ "self", T_SELF },
	{ "short", T_SHORT },
	{ "signed", T_SIGNED },
	{ "sizeof", T_SIZEOF },
	{ "static", T_STATIC },
	{ "string", T_STRING_KW },
	{ "stringof", T_STRINGOF },
	{ "struct", T_STRUCT },
	{ "switch", T_SWITCH },
	{ "this", T_THIS },
	{ "translator", T_TRANSLATOR },
	{ "typedef", T_TYPEDEF },
	{ "union", T_UNION },
	{ "unsigned", T_UNSIGNED },
	{ "userland", T_USERLAND },
	{ "void", T_VOID },
	{ "volatile", T_VOLATILE },
	{ "while", T_WHILE },
	{ "xlate", T_XLATE },
	{ "_Bool", T_BOOL },
};

static const char *const toknames[] = {
	[T_EOF] = "end of input",
	[T_IDENT] = "identifier",
	[T_INT] = "integer constant",
	[T_CHAR] = "character constant",
	[T_STRING] = "string literal",
	[T_MACRO] = "macro argument",
	[T_MACSTR] = "macro argument",
	[T_AGG] = "aggregation",
	[T_PRAGMA] = "#pragma",
	[T_PSPEC] = "probe description",
	[T_EPRED] = "/",
	[T_BQUOTE] = "`",
	[T_LPAREN] = "(",
	[T_RPAREN] = ")",
	[T_LBRACKET] = "[",
	[T_RBRACKET] = "]",
	[T_LBRACE] = "{",
	[T_RBRACE] = "}",
	[T_SEMI] = ";",
	[T_COMMA] = ",",
	[T_COLON] = ":",
	[T_QUESTION] = "?",
	[T_DOT] = ".",
	[T_ARROW] = "->",
	[T_ELLIPSIS] = "...",
	[T_PLUS] = "+",
	[T_MINUS] = "-",
	[T_STAR] = "*",
	[T_SLASH] = "/",
	[T_PERCENT] = "%",
	[T_AMP] = "&",
	[T_BAR] = "|",
	[T_XOR] = "^",
	[T_TILDE] = "~",
	[T_BANG] = "!",
	[T_LT] = "<",
	[T_GT] = ">",
	[T_LE] = "<=",
	[T_GE] = ">=",
	[T_EQEQ] = "==",
	[T_NE] = "!=",
	[T_LAND] = "&&",
	[T_LOR] = "||",
	[T_LXOR] = "^^",
	[T_SHL] = "<<",
	[T_SHR] = ">>",
	[T_INC] = "++",
	[T_DEC] = "--",
	[T_ASSIGN] = "=",
	[T_ADD_EQ] = "+=",
	[T_SUB_EQ] = "-=",
	[T_MUL_EQ] = "*=",
	[T_DIV_EQ] = "/=",
	[T_MOD_EQ] = "%=",
	[T_AND_EQ] = "&=",
	[T_OR_EQ] = "|=",
	[T_XOR_EQ] = "^=",
	[T_SHL_EQ] = "<<=",
	[T_SHR_EQ] = ">>=",
};

const char *dt_tok_name(dt_tok_t t)
{
	if (t >= T_KW_FIRST && t <= T_KW_LAST) {
		for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
			if (keywords[i].tok == t)
				return keywords[i].name;
	}
	if ((size_t)t < sizeof(toknames) / sizeof(toknames[0]) && toknames[t] != NULL)
		return toknames[t];
	return "token";
}

void dt_lex_init(dt_pcb_t *pcb)
{
	pcb->pcb_braces = pcb->pcb_parens = 0;
	pcb->pcb_clause_start = true;
	pcb->pcb_pos = 0;
	pcb->pcb_line = 1;
	pcb->pcb_col = 1;
	pcb->pcb_linestart = 0;
	pcb->pcb_havepeek = false;
	memset(&pcb->pcb_tok, 0, sizeof(pcb->pcb_tok));
}

static int cur(const dt_pcb_t *pcb)
{
	return pcb->pcb_pos < pcb->pcb_len ? (unsigned char)pcb->pcb_buf[pcb->pcb_pos] : -1;
}

static int at(const dt_pcb_t *pcb, size_t k)
{
	size_t p = pcb->pcb_pos + k;

	return p < pcb->pcb_len ? (unsigned char)pcb->pcb_buf[p] : -1;
}

static void advance(dt_pcb_t *pcb)
{
	if (pcb->pcb_pos >= pcb->pcb_len)
		return;
	if (pcb->pcb_buf[pcb->pcb_pos] == '\n') {
		pcb->pcb_line++;
		pcb->pcb_col = 1;
		pcb->pcb_linestart = pcb->pcb_pos + 1;
	} else if (((unsigned char)pcb->pcb_buf[pcb->pcb_pos] & 0xc0) != 0x80) {
		pcb->pcb_col++; /* columns count characters: UTF-8 continuation bytes add none */
	}
	pcb->pcb_pos++;
}

static dt_loc_t here(const dt_pcb_t *pcb)
{
	dt_loc_t loc = { pcb->pcb_file, pcb->pcb_line, pcb->pcb_col, pcb->pcb_pos };

	return loc;
}

/*
 * A cpp line marker: '# 12 "file" flags' or '#line 12 "file"'.  The line
 * after the marker is line 12 of file.  Returns false if this is not one.
 */
static bool line_marker(dt_pcb_t *pcb, size_t p)
{
	const char *b = pcb->pcb_buf;
	size_t e = pcb->pcb_len;
	unsigned long line;
	char *end;

	if (p + 4 <= e && strncmp(b + p, "line", 4) == 0)
		p += 4;
	while (p < e && (b[p] == ' ' || b[p] == '\t'))
		p++;
	if (p >= e || !isdigit((unsigned char)b[p]))
		return false;
	errno = 0;
	line = strtoul(b + p, &end, 10);
	if (errno != 0 || line > 100000000UL)
		return false;
	p = (size_t)(end - b);
	while (p < e && (b[p] == ' ' || b[p] == '\t'))
		p++;
	if (p < e && b[p] == '"') {
		size_t q = ++p, n = 0;
		char *f;

		/* cpp escapes '"' and '\\' in the name */
		while (q < e && b[q] != '"' && b[q] != '\n')
			q += (b[q] == '\\' && q + 1 < e && b[q + 1] != '\n') ? 2 : 1;
		if (q >= e || b[q] != '"')
			return false;
		if ((f = dt_arena_alloc(pcb->pcb_arena, q - p + 1)) == NULL)
			dt_cnomem(pcb);
		for (size_t i = p; i < q; i++)
			f[n++] = b[i] == '\\' && i + 1 < q ? b[++i] : b[i];
		f[n] = '\0';
		pcb->pcb_file = f;
	}
	/* skip to end of line; the newline itself moves us to the next line */
	while (pcb->pcb_pos < e && b[pcb->pcb_pos] != '\n')
		pcb->pcb_pos++;
	if (pcb->pcb_pos < e) {
		pcb->pcb_pos++;
		pcb->pcb_linestart = pcb->pcb_pos;
	}
	pcb->pcb_line = (unsigned)line;
	pcb->pcb_col = 1;
	return true;
}

/* A '#' that begins a line.  Returns true if a T_PRAGMA token was made. */
static bool directive(dt_pcb_t *pcb, dt_token_t *tk)
{
	const char *b = pcb->pcb_buf;
	size_t p = pcb->pcb_pos + 1, s;
	dt_loc_t loc = here(pcb);

	if (p < pcb->pcb_len && b[p] == '!') { /* "#!/usr/sbin/dtrace -s": an interpreter line */
		while (p < pcb->pcb_len && b[p] != '\n')
			p++;
		while (pcb->pcb_pos < p)
			advance(pcb);
		return false;
	}
	while (p < pcb->pcb_len && (b[p] == ' ' || b[p] == '\t'))
		p++;
	if (line_marker(pcb, p))
		return false;
	if (p + 6 <= pcb->pcb_len && strncmp(b + p, "pragma", 6) == 0 &&
	    (p + 6 == pcb->pcb_len || isspace((unsigned char)b[p + 6]))) {
		p += 6;
		while (p < pcb->pcb_len && (b[p] == ' ' || b[p] == '\t'))
			p++;
		s = p;
		while (p < pcb->pcb_len && b[p] != '\n')
			p++;
		while (pcb->pcb_pos < p)
			advance(pcb);
		while (p > s && isspace((unsigned char)b[p - 1])) /* "\r\n" line ends too */
			p--;
		tk->tk_kind = T_PRAGMA;
		tk->tk_loc = loc;
		tk->tk_str = dt_arena_strndup(pcb->pcb_arena, b + s, p - s);
		if (tk->tk_str == NULL)
			dt_cnomem(pcb);
		tk->tk_len = p - s;
		return true;
	}
	if (p == pcb->pcb_len || b[p] == '\n') { /* a lone '#' is a null directive */
		while (pcb->pcb_pos < p)
			advance(pcb);
		return false;
	}
	s = p;
	while (p < pcb->pcb_len && isalpha((unsigned char)b[p]))
		p++;
	dt_cerror(pcb, &loc, "D_PRAGCTL_INVAL",
		  "invalid control directive: #%.*s (use -C to run the preprocessor)", (int)(p - s),
		  b + s);
}

/* Only blanks between the start of the line and here: a '#' begins a directive. */
static bool at_line_start(const dt_pcb_t *pcb)
{
	for (size_t i = pcb->pcb_linestart; i < pcb->pcb_pos; i++)
		if (pcb->pcb_buf[i] != ' ' && pcb->pcb_buf[i] != '\t')
			return false;
	return true;
}

/* Skip blanks, newlines, comments and line markers; handle #pragma lines. */
static bool skip_space(dt_pcb_t *pcb, dt_token_t *tk)
{
	for (;;) {
		int c = cur(pcb);

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
			advance(pcb);
		} else if (c == '/' && at(pcb, 1) == '*') {
			dt_loc_t loc = here(pcb);

			advance(pcb);
			advance(pcb);
			while (!(cur(pcb) == '*' && at(pcb, 1) == '/')) {
				if (cur(pcb) < 0)
					dt_cerror(pcb, &loc, "D_SYNTAX",
						  "end-of-file encountered before matching */");
				if (cur(pcb) == '/' && at(pcb, 1) == '*') {
					dt_loc_t in = here(pcb);

					dt_cerror(pcb, &in, "D_SYNTAX",
						  "/* encountered inside a comment");
				}
				advance(pcb);
			}
			advance(pcb);
			advance(pcb);
		} else if (c == '/' && at(pcb, 1) == '/') {
			while (cur(pcb) >= 0 && cur(pcb) != '\n')
				advance(pcb);
		} else if (c == '#' && at_line_start(pcb)) {
			if (directive(pcb, tk))
				return true;
		} else {
			return false;
		}
	}
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* lex_char() result for "\\c" that is no escape: '\\' then c */
#define ESC_KEEP 0x10000

/* One possibly escaped character of a string or character constant. */
static int lex_char(dt_pcb_t *pcb, int quote, const dt_loc_t *start)
{
	dt_loc_t loc = here(pcb);
	int c = cur(pcb), v;

	if (c < 0)
		dt_cerror(pcb, start, "D_SYNTAX", "end-of-file encountered in %s",
			  quote == '"' ? "string literal" : "character constant");
	if (c == '\n')
		dt_cerror(pcb, start, quote == '"' ? "D_STR_NL" : "D_CHR_NL",
			  "newline encountered in %s",
			  quote == '"' ? "string literal" : "character constant");
	advance(pcb);
	if (c != '\\')
		return c;
	c = cur(pcb);
	if (c < 0 || c == '\n')
		dt_cerror(pcb, start, "D_SYNTAX", "incomplete escape sequence");
	advance(pcb);
	switch (c) {
	case 'n': return '\n';
	case 't': return '\t';
	case 'v': return '\v';
	case 'b': return '\b';
	case 'r': return '\r';
	case 'f': return '\f';
	case 'a': return '\a';
	case '\\': return '\\';
	case '?': return '?';
	case '\'': return '\'';
	case '"': return '"';
	case 'x':
		if (hexval(cur(pcb)) < 0)
			dt_cerror(pcb, &loc, "D_SYNTAX", "\\x used with no following hex digits");
		v = 0;
		for (int n = 0; n < 2 && hexval(cur(pcb)) >= 0; n++) {
			v = v * 16 + hexval(cur(pcb));
			advance(pcb);
		}
		return v;
	default:
		if (c >= '0' && c <= '7') {
			v = c - '0';
			for (int n = 0; n < 2 && cur(pcb) >= '0' && cur(pcb) <= '7'; n++) {
				v = v * 8 + (cur(pcb) - '0');
				advance(pcb);
			}
			if (v > 255)
				dt_cerror(pcb, &loc, "D_SYNTAX",
					  "octal escape sequence out of range");
			return v;
		}
		/* not an escape: both characters stand, as in DTrace */
		(void)loc;
		return ESC_KEEP | c;
	}
}

static void lex_string(dt_pcb_t *pcb, dt_token_t *tk)
{
	size_t cap = 64, n = 0;
	char *s = dt_palloc(pcb, cap);

	advance(pcb); /* opening quote */
	while (cur(pcb) != '"') {
		int c = lex_char(pcb, '"', &tk->tk_loc);

		if (c & ESC_KEEP) {
			if (n + 2 >= cap) {
				char *ns = dt_palloc(pcb, cap * 2);

				memcpy(ns, s, n);
				s = ns;
				cap *= 2;
			}
			s[n++] = '\\';
			c &= 0xff;
		}
		if (n + 1 >= cap) {
			char *ns = dt_palloc(pcb, cap * 2);

			memcpy(ns, s, n);
			s = ns;
			cap *= 2;
		}
		s[n++] = (char)c;
	}
	advance(pcb);
	s[n] = '\0';
	tk->tk_kind = T_STRING;
	tk->tk_str = s;
	tk->tk_len = n;
}

static void lex_charconst(dt_pcb_t *pcb, dt_token_t *tk)
{
	uint64_t v = 0;
	int n = 0;

	advance(pcb);
	while (cur(pcb) != '\'') {
		int c = lex_char(pcb, '\'', &tk->tk_loc);

		if (c & ESC_KEEP) {
			if (++n > 8)
				dt_cerror(pcb, &tk->tk_loc, "D_CHR_OFLOW",
					  "character constant is too long");
			v = (v << 8) | '\\';
			c &= 0xff;
		}
		if (++n > 8)
			dt_cerror(pcb, &tk->tk_loc, "D_CHR_OFLOW",
				  "character constant is too long");
		v = (v << 8) | (unsigned char)c;
	}
	advance(pcb);
	if (n == 0)
		dt_cerror(pcb, &tk->tk_loc, "D_CHR_NULL", "empty character constant");
	/* a single char is a signed char promoted to int, as in C */
	if (n == 1)
		v = (uint64_t)(int64_t)(signed char)v;
	tk->tk_kind = T_CHAR;
	tk->tk_ival = v;
}

static void lex_number(dt_pcb_t *pcb, dt_token_t *tk)
{
	uint64_t v = 0;
	int base = 10, d;
	bool any = false, ovf = false;

	if (cur(pcb) == '0' && (at(pcb, 1) == 'x' || at(pcb, 1) == 'X')) {
		base = 16;
		advance(pcb);
		advance(pcb);
	} else if (cur(pcb) == '0') {
		base = 8;
	}
	for (;;) {
		int c = cur(pcb);

		d = hexval(c);
		if (d < 0 || (base == 10 && d > 9) || (base == 8 && d > 9))
			break;
		if (base == 8 && d > 7)
			dt_cerror(pcb, &tk->tk_loc, "D_INT_DIGIT",
				  "invalid digit '%c' in octal constant", c);
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			ovf = true;
		v = v * (uint64_t)base + (uint64_t)d;
		any = true;
		advance(pcb);
	}
	if (base == 16 && !any)
		dt_cerror(pcb, &tk->tk_loc, "D_SYNTAX", "hexadecimal constant has no digits");
	if (cur(pcb) == '.' || cur(pcb) == 'e' || cur(pcb) == 'E')
		dt_cerror(pcb, &tk->tk_loc, "D_SYNTAX",
			  "floating-point constants are not permitted in D");
	tk->tk_flags = base != 10 ? DT_INT_NONDEC : 0;
	for (;;) {
		int c = cur(pcb);

		if ((c == 'u' || c == 'U') && !(tk->tk_flags & DT_INT_UNSIGNED)) {
			tk->tk_flags |= DT_INT_UNSIGNED;
		} else if ((c == 'l' || c == 'L') &&
			   !(tk->tk_flags & (DT_INT_LONG | DT_INT_LONGLONG))) {
			if (at(pcb, 1) == c) {
				advance(pcb);
				tk->tk_flags |= DT_INT_LONGLONG;
			} else {
				tk->tk_flags |= DT_INT_LONG;
			}
		} else {
			break;
		}
		advance(pcb);
	}
	if (isalnum(cur(pcb)) || cur(pcb) == '_')
		dt_cerror(pcb, &tk->tk_loc, "D_SYNTAX", "invalid suffix on integer constant");
	if (ovf)
		dt_cerror(pcb, &tk->tk_loc, "D_INT_OFLOW", "integer constant is too large");
	tk->tk_kind = T_INT;
	tk->tk_ival = v;
}

static bool isident(int c)
{
	return c == '_' || isalnum(c);
}

static const char *lex_name(dt_pcb_t *pcb, size_t *lenp)
{
	size_t s = pcb->pcb_pos;
	char *p;

	while (cur(pcb) >= 0 && isident(cur(pcb)))
		advance(pcb);
	*lenp = pcb->pcb_pos - s;
	p = dt_arena_strndup(pcb->pcb_arena, pcb->pcb_buf + s, *lenp);
	if (p == NULL)
		dt_cnomem(pcb);
	return p;
}

/*
 * Probe descriptions.  Where a clause may begin (the start of the program,
 * after a declaration's ';' or a clause's '}', after a ',' that follows a
 * description), text like "syscall::read:entry", "pid$target:a.out::entry",
 * "tick-1s" or "BEGIN" is one T_PSPEC token -- unless it is a keyword or a
 * type name, which begin declarations.  The parser turns a T_PSPEC that is a
 * plain identifier back into one where a declaration needs it.
 */
static bool is_pspec_char(int c, bool first)
{
	if (c < 0)
		return false;
	if (isalpha(c) || c == '_' || c == '-' || c == '$' || c == ':' || c == '.' || c == '?' ||
	    c == '*' || c == '\\' || c == '[' || c == ']' || c == '!')
		return true;
	return !first && (isdigit(c) || c == '`');
}

/*
 * A module that is a path, "python:/usr/bin/python3.11::function-entry":
 * a '/' right after the description's first ':' starts a path, which runs
 * to the next ':'.  Anywhere else a '/' begins the predicate, as in
 * "syscall:::/pid == 1/" or "BEGIN/x/".
 */
static bool is_path_char(int c)
{
	return c > ' ' && c < 0x7f && c != ':' && c != ',' && c != '{' && c != '"';
}

static bool lex_pspec(dt_pcb_t *pcb, dt_token_t *tk)
{
	size_t s = pcb->pcb_pos, e = s;
	bool ident = true, path = false;
	int colons = 0;

	while (e < pcb->pcb_len) {
		char c = pcb->pcb_buf[e];

		if (c == '/' && colons == 1 && (path || pcb->pcb_buf[e - 1] == ':'))
			path = true;
		else if (path && c != ':' && !is_path_char((unsigned char)c))
			break;
		else if (!path && !is_pspec_char((unsigned char)c, e == s))
			break;
		if (c == ':') {
			colons++;
			path = false;
		}
		if (!(isalnum((unsigned char)c) || c == '_'))
			ident = false;
		e++;
	}
	if (ident) {
		char name[128];
		size_t n = e - s;

		if (n >= sizeof(name) || isdigit((unsigned char)pcb->pcb_buf[s]))
			return false;
		memcpy(name, pcb->pcb_buf + s, n);
		name[n] = '\0';
		for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
			if (keywords[i].name[0] == name[0] && strcmp(keywords[i].name, name) == 0)
				return false;
		if (pcb->pcb_types != NULL && dt_type_lookup(pcb->pcb_types, name) != NULL)
			return false;
	}
	tk->tk_str = dt_arena_strndup(pcb->pcb_arena, pcb->pcb_buf + s, e - s);
	if (tk->tk_str == NULL)
		dt_cnomem(pcb);
	tk->tk_len = e - s;
	while (pcb->pcb_pos < e)
		advance(pcb);
	tk->tk_kind = T_PSPEC;
	return true;
}

/*
 * In a predicate, is the '/' at pcb_pos its end?  Yes when what follows
 * (past blanks, newlines and comments) is '{' or the end of input, as
 * DTrace's lexer decides: a predicate needs actions after it.
 */
static bool ends_predicate(const dt_pcb_t *pcb)
{
	size_t p = pcb->pcb_pos + 1;

	for (;;) {
		while (p < pcb->pcb_len && isspace((unsigned char)pcb->pcb_buf[p]))
			p++;
		if (p + 1 < pcb->pcb_len && pcb->pcb_buf[p] == '/' && pcb->pcb_buf[p + 1] == '*') {
			const char *e = strstr(pcb->pcb_buf + p + 2, "*/");

			if (e == NULL)
				return true;
			p = (size_t)(e - pcb->pcb_buf) + 2;
			continue;
		}
		if (p + 1 < pcb->pcb_len && pcb->pcb_buf[p] == '/' && pcb->pcb_buf[p + 1] == '/') {
			while (p < pcb->pcb_len && pcb->pcb_buf[p] != '\n')
				p++;
			continue;
		}
		return p >= pcb->pcb_len || pcb->pcb_buf[p] == '{';
	}
}

/* Operators, longest match first. */
static const struct {
	const char *op;
	dt_tok_t tok;
} operators[] = {
	{ "<<=", T_SHL_EQ }, { ">>=", T_SHR_EQ }, { "...", T_ELLIPSIS }, { "->", T_ARROW },
	{ "++", T_INC },     { "--", T_DEC },	  { "<<", T_SHL },	 { ">>", T_SHR },
	{ "<=", T_LE },	     { ">=", T_GE },	  { "==", T_EQEQ },	 { "!=", T_NE },
	{ "&&", T_LAND },    { "||", T_LOR },	  { "^^", T_LXOR },	 { "+=", T_ADD_EQ },
	{ "-=", T_SUB_EQ },  { "*=", T_MUL_EQ },  { "/=", T_DIV_EQ },	 { "%=", T_MOD_EQ },
	{ "&=", T_AND_EQ },  { "|=", T_OR_EQ },	  { "^=", T_XOR_EQ },	 { "(", T_LPAREN },
	{ ")", T_RPAREN },   { "[", T_LBRACKET }, { "]", T_RBRACKET },	 { "{", T_LBRACE },
	{ "}", T_RBRACE },   { ";", T_SEMI },	  { ",", T_COMMA },	 { ":", T_COLON },
	{ "?", T_QUESTION }, { ".", T_DOT },	  { "+", T_PLUS },	 { "-", T_MINUS },
	{ "*", T_STAR },     { "/", T_SLASH },	  { "%", T_PERCENT },	 { "&", T_AMP },
	{ "|", T_BAR },	     { "^", T_XOR },	  { "~", T_TILDE },	 { "!", T_BANG },
	{ "<", T_LT },	     { ">", T_GT },	  { "=", T_ASSIGN },	 { "`", T_BQUOTE },
};

static void lex_token(dt_pcb_t *pcb, dt_token_t *tk)
{
	int c;

	memset(tk, 0, sizeof(*tk));
	if (skip_space(pcb, tk))
		return;
	tk->tk_loc = here(pcb);
	c = cur(pcb);
	if (c < 0) {
		tk->tk_kind = T_EOF;
		return;
	}
	if (pcb->pcb_clause_start && pcb->pcb_braces == 0 && pcb->pcb_parens == 0 &&
	    is_pspec_char(c, true) && lex_pspec(pcb, tk))
		return;
	if (c == '_' || isalpha(c)) {
		tk->tk_str = lex_name(pcb, &tk->tk_len);
		tk->tk_kind = T_IDENT;
		for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
			if (keywords[i].name[0] == tk->tk_str[0] &&
			    strcmp(keywords[i].name, tk->tk_str) == 0) {
				tk->tk_kind = keywords[i].tok;
				break;
			}
		}
		return;
	}
	if (isdigit(c)) {
		lex_number(pcb, tk);
		return;
	}
	if (c == '"') {
		lex_string(pcb, tk);
		return;
	}
	if (c == '\'') {
		lex_charconst(pcb, tk);
		return;
	}
	if (c == '$') {
		advance(pcb);
		tk->tk_kind = T_MACRO;
		if (cur(pcb) == '$') {
			advance(pcb);
			tk->tk_kind = T_MACSTR;
		}
		if (cur(pcb) < 0 || !isident(cur(pcb)))
			dt_cerror(pcb, &tk->tk_loc, "D_SYNTAX", "'$' must be followed by a name");
		tk->tk_str = lex_name(pcb, &tk->tk_len);
		return;
	}
	if (c == '@') {
		advance(pcb);
		tk->tk_kind = T_AGG;
		if (cur(pcb) >= 0 && (cur(pcb) == '_' || isalpha(cur(pcb)))) {
			tk->tk_str = lex_name(pcb, &tk->tk_len);
		} else {
			tk->tk_str = "";
		}
		return;
	}
	if (c == '/' && pcb->pcb_in_predicate && pcb->pcb_parens == 0 && ends_predicate(pcb)) {
		advance(pcb);
		tk->tk_kind = T_EPRED;
		return;
	}
	for (size_t i = 0; i < sizeof(operators) / sizeof(operators[0]); i++) {
		size_t n;

		if (operators[i].op[0] !=
		    pcb->pcb_buf[pcb->pcb_pos]) /* the memcmp only for those */
			continue;
		n = strlen(operators[i].op);
		if (pcb->pcb_pos + n <= pcb->pcb_len &&
		    memcmp(pcb->pcb_buf + pcb->pcb_pos, operators[i].op, n) == 0) {
			while (n-- > 0)
				advance(pcb);
			tk->tk_kind = operators[i].tok;
			return;
		}
	}
	if (c == 0)
		dt_cerror(pcb, &tk->tk_loc, "D_SYNTAX", "invalid character \\0 in program");
	if (isprint(c))
		dt_cerror(pcb, &tk->tk_loc, "D_SYNTAX", "invalid character '%c'", c);
	dt_cerror(pcb, &tk->tk_loc, "D_SYNTAX", "invalid character \\x%02x", c);
}

static void lex_token_end(dt_pcb_t *pcb, dt_token_t *tk)
{
	bool after_pspec = pcb->pcb_prev_pspec;

	lex_token(pcb, tk);
	tk->tk_end = pcb->pcb_pos;
	switch (tk->tk_kind) {
	case T_LBRACE:
		/* "struct s {" or "enum {" at the top: a declaration, not a clause */
		if (pcb->pcb_braces++ == 0) {
			dt_tok_t p0 = pcb->pcb_prev_kinds[0], p1 = pcb->pcb_prev_kinds[1];

			pcb->pcb_decl_body =
			    p0 == T_STRUCT || p0 == T_UNION || p0 == T_ENUM ||
			    (p0 == T_IDENT && (p1 == T_STRUCT || p1 == T_UNION || p1 == T_ENUM));
		}
		break;
	case T_RBRACE:
		if (pcb->pcb_braces > 0)
			pcb->pcb_braces--;
		break;
	case T_LPAREN: pcb->pcb_parens++; break;
	case T_RPAREN:
		if (pcb->pcb_parens > 0)
			pcb->pcb_parens--;
		break;
	default: break;
	}
	/* where may the next token begin a clause? */
	if (pcb->pcb_braces > 0 || pcb->pcb_parens > 0)
		pcb->pcb_clause_start = false;
	else if (tk->tk_kind == T_RBRACE && pcb->pcb_decl_body)
		/* "struct s { ... } *sp;": declarators may follow the body */
		pcb->pcb_clause_start = pcb->pcb_decl_body = false;
	else if (tk->tk_kind == T_RBRACE || tk->tk_kind == T_SEMI || tk->tk_kind == T_PRAGMA ||
		 tk->tk_kind == T_PSPEC || tk->tk_kind == T_EPRED)
		/* after a description or predicate, a clause without actions may end */
		pcb->pcb_clause_start = true;
	else if (tk->tk_kind == T_COMMA)
		pcb->pcb_clause_start = after_pspec;
	else if (tk->tk_kind != T_EOF)
		pcb->pcb_clause_start = false;
	pcb->pcb_prev_pspec = tk->tk_kind == T_PSPEC;
	pcb->pcb_prev_kinds[1] = pcb->pcb_prev_kinds[0];
	pcb->pcb_prev_kinds[0] = tk->tk_kind;
}

void dt_lex_next(dt_pcb_t *pcb)
{
	if (pcb->pcb_havepeek) {
		pcb->pcb_tok = pcb->pcb_peek;
		pcb->pcb_havepeek = false;
		return;
	}
	lex_token_end(pcb, &pcb->pcb_tok);
}

const dt_token_t *dt_lex_peek(dt_pcb_t *pcb)
{
	if (!pcb->pcb_havepeek) {
		lex_token_end(pcb, &pcb->pcb_peek);
		pcb->pcb_havepeek = true;
	}
	return &pcb->pcb_peek;
}
