/*
 * dt_strings.c -- the bodies of D's string subroutines, in C, compiled to
 * BPF at build time (dt_bpf_env.h has the rules) and unit-tested on the
 * host.  Each dt_NAME is called by the code dt_cg.c generates for NAME():
 * its string arguments are pointers to STRSIZE bytes holding a NUL, its
 * result (a string) goes to dst, a temporary of STRSIZE bytes the caller
 * reserved, distinct from every argument.
 *
 * Semantics are illumos's (uts/common/dtrace/dtrace.c, dtrace_dif_subr),
 * cited at each function.
 */
#include "dt_bpf_env.h"

/* the entry points dt_cg.c calls (and the host's unit test) */
char *dt_substr(char *dst, const char *s, s64 index, s64 remaining);
s64 dt_index(const char *s, const char *sub, s64 pos, s64 haspos);
s64 dt_rindex(const char *s, const char *sub, s64 pos, s64 haspos);
char *dt_strstr(char *dst, const char *s, const char *sub);
char *dt_strchr(char *dst, const char *s, s64 c);
char *dt_strrchr(char *dst, const char *s, s64 c);
char *dt_toupper(char *dst, const char *s);
char *dt_tolower(char *dst, const char *s);
char *dt_lltostr(char *dst, s64 v, s64 base);
char *dt_basename(char *dst, const char *s);
char *dt_dirname(char *dst, const char *s);
char *dt_cleanpath(char *dst, const char *s, u64 *w);
char *dt_strtok(char *dst, const char *s, const char *delim, char *state);
char *dt_json(char *dst, const char *json, const char *elem, u64 *w);
s64 dt_char_at(const char *s, s64 i);
s64 dt_strtoll(const char *s, s64 base);
struct inet_w;
char *dt_inet(char *dst, const void *addr, s64 af, s64 flags, struct inet_w *w);

/* strlen(s), measured by copying s to dst (which the caller overwrites after) */
static DT_FN s64 len_by_copy(char *dst, const char *s)
{
	long n = bpf_probe_read_kernel_str(dst, STRSIZE, s);

	return n > 0 ? n - 1 : 0;
}

/*
 * substr(s, index, remaining): illumos DIF_SUBR_SUBSTR.  A negative index
 * counts from the end; one before the start shortens remaining by as
 * much; an index at or past the end gives ""; a negative remaining leaves
 * that many bytes off the end.  The caller passes remaining = STRSIZE when
 * the script gave none.
 */
DT_FN char *dt_substr(char *dst, const char *s, s64 index, s64 remaining)
{
	s64 len = len_by_copy(dst, s);
	u64 n;

	if (index < 0) {
		index += len;
		if (index < 0 && index + remaining > 0) {
			remaining += index;
			index = 0;
		}
	}
	if (index >= len || index < 0)
		remaining = 0;
	else if (remaining < 0)
		remaining += len - index;
	else if (index + remaining > (s64)STRSIZE)
		remaining = (s64)STRSIZE - index;
	dst[0] = '\0';
	if (remaining <= 0)
		return dst;
	/* index is in [0, len): s + index is in s; n bytes and the NUL fit dst */
	n = (u64)remaining;
	if (n > STRSIZE - 1)
		n = STRSIZE - 1;
	bpf_probe_read_kernel_str(dst, (u32)n + 1, s + index);
	return dst;
}

/* ---------------------------------------------------------------- strlen */

struct len_ctx {
	const char *s;
	u64 n;
};

static long len_cb(u64 i, void *c)
{
	struct len_ctx *x = c;

	if (i >= STRSIZE)
		return 1;
	if (x->s[i] == '\0') {
		x->n = i;
		return 1;
	}
	return 0;
}

/* strlen(s), without a place to copy it to */
static DT_FN s64 str_len(const char *s)
{
	struct len_ctx x = { s, STRSIZE - 1 };

	bpf_loop(STRSIZE, len_cb, &x, 0);
	return (s64)x.n;
}

/* s from pos to its end into dst (NULL when pos is not in s's STRSIZE bytes) */
static DT_FN char *suffix(char *dst, const char *s, s64 pos)
{
	if (pos < 0 || (u64)pos >= STRSIZE)
		return 0;
	bpf_probe_read_kernel_str(dst, STRSIZE, s + pos);
	return dst;
}

/* s[i]: its byte, 0 outside the string (its NUL and past it) */
DT_FN s64 dt_char_at(const char *s, s64 i)
{
	if (i < 0 || i >= str_len(s) || (u64)i >= STRSIZE)
		return 0;
	return s[i];
}

/* ---------------------------------------------------------------- searching */

/*
 * Loops are bpf_loop() callbacks, and what a callback indexes memory with
 * comes from its own index or is the same in every call: a counter
 * carried from one call to the next would have to be exact for the
 * verifier, which would then check every call apart (strsize of them).
 * Counters that must be carried live in map memory (the work words the
 * caller passes), whose loads the verifier does not track.
 */
struct find_ctx {
	const char *s, *sub;
	s64 start, inc, count, found, pos;
	u64 sublen, miss;
};

/* sub's byte j against s's at pos + j */
static long cmp_cb(u64 j, void *c)
{
	struct find_ctx *f = c;
	u64 k = (u64)f->pos + j;

	if (j >= STRSIZE || k >= STRSIZE || f->s[k] != f->sub[j]) {
		f->miss = 1;
		return 1;
	}
	return 0;
}

/* position i of the search: sub there ends it */
static long find_cb(u64 i, void *c)
{
	struct find_ctx *f = c;
	s64 pos = f->start + f->inc * (s64)i;

	if ((s64)i >= f->count || pos < 0 || (u64)pos >= STRSIZE)
		return 1;
	f->pos = pos;
	f->miss = 0;
	bpf_loop((u32)f->sublen, cmp_cb, f, 0);
	if (!f->miss) {
		f->found = pos;
		return 1;
	}
	return 0;
}

/*
 * The first of count positions from start, stepping by inc, where sub is
 * in s; -1 if none.  illumos compares with strncmp at each position, the
 * same thing.
 */
static DT_FN s64 search(const char *s, const char *sub, s64 start, s64 inc, s64 count)
{
	struct find_ctx f = { s, sub, start, inc, count, -1, 0, 0, 0 };

	f.sublen = (u64)str_len(sub);
	bpf_loop(STRSIZE + 1, find_cb, &f, 0);
	return f.found;
}

/*
 * index(s, sub [, pos]) and rindex(): illumos DIF_SUBR_INDEX/RINDEX, Perl's
 * rules.  Both of "" give 0 whatever pos; index clamps a negative pos to
 * 0 and gives, from pos at or past the end, the length for an empty sub
 * (else -1); rindex gives, for a negative pos, 0 for an empty sub (else
 * -1) and clamps a pos past the end to the length.
 */
DT_FN s64 dt_index(const char *s, const char *sub, s64 pos, s64 haspos)
{
	s64 len = str_len(s), sublen = str_len(sub);

	if (len == 0 && sublen == 0)
		return 0;
	if (!haspos || pos < 0)
		pos = 0;
	if (haspos && pos >= len)
		return sublen == 0 ? len : -1;
	return search(s, sub, pos, 1, len - pos);
}

DT_FN s64 dt_rindex(const char *s, const char *sub, s64 pos, s64 haspos)
{
	s64 len = str_len(s), sublen = str_len(sub);

	if (len == 0 && sublen == 0)
		return 0;
	if (haspos && pos < 0)
		return sublen == 0 ? 0 : -1;
	if (!haspos || pos > len)
		pos = len;
	return search(s, sub, pos, -1, pos + 1);
}

/* strstr(s, sub): s from sub's first place, or NULL (illumos DIF_SUBR_STRSTR) */
DT_FN char *dt_strstr(char *dst, const char *s, const char *sub)
{
	s64 len = str_len(s);

	return suffix(dst, s, search(s, sub, 0, 1, len == 0 ? 1 : len));
}

struct chr_ctx {
	const char *s;
	s64 found, last;
	char c;
};

static long chr_cb(u64 i, void *c)
{
	struct chr_ctx *x = c;
	char ch;

	if (i >= STRSIZE)
		return 1;
	ch = x->s[i];
	if (ch == x->c) {
		x->found = (s64)i;
		if (!x->last)
			return 1;
	}
	return ch == '\0';
}

/*
 * strchr(s, c), strrchr(s, c): s from c's first (last) place, or NULL;
 * c as a char, and its NUL is a place too (illumos DIF_SUBR_STRCHR).
 */
DT_FN char *dt_strchr(char *dst, const char *s, s64 c)
{
	struct chr_ctx x = { s, -1, 0, (char)c };

	bpf_loop(STRSIZE, chr_cb, &x, 0);
	return suffix(dst, s, x.found);
}

DT_FN char *dt_strrchr(char *dst, const char *s, s64 c)
{
	struct chr_ctx x = { s, -1, 1, (char)c };

	bpf_loop(STRSIZE, chr_cb, &x, 0);
	return suffix(dst, s, x.found);
}

/* ---------------------------------------------------------------- case */

struct case_ctx {
	char *dst;
	const char *s;
	char lo, hi, to;
};

static long case_cb(u64 i, void *c)
{
	struct case_ctx *x = c;
	char ch;

	if (i >= STRSIZE - 1) {
		if (i < STRSIZE)
			x->dst[i] = '\0';
		return 1;
	}
	ch = x->s[i];
	if (ch >= x->lo && ch <= x->hi)
		ch = (char)(x->to + (ch - x->lo));
	x->dst[i] = ch;
	return ch == '\0';
}

/* toupper(s), tolower(s): ASCII letters only (illumos DIF_SUBR_TOUPPER) */
DT_FN char *dt_toupper(char *dst, const char *s)
{
	struct case_ctx x = { dst, s, 'a', 'z', 'A' };

	bpf_loop(STRSIZE, case_cb, &x, 0);
	return dst;
}

DT_FN char *dt_tolower(char *dst, const char *s)
{
	struct case_ctx x = { dst, s, 'A', 'Z', 'a' };

	bpf_loop(STRSIZE, case_cb, &x, 0);
	return dst;
}

/* ---------------------------------------------------------------- lltostr */

/*
 * lltostr(v [, base]): illumos DIF_SUBR_LLTOSTR.  Base 2 to 36, digits
 * then lower-case letters; base 10 signed, any other the bits unsigned;
 * base 8 with a leading 0, base 16 with 0x.  A bad base is NULL (the
 * caller's illegal operation).
 */
DT_FN char *dt_lltostr(char *dst, s64 v, s64 base)
{
	char buf[72];
	u64 val, b, d;
	int k = 70;

	if (base <= 1 || base > 36)
		return 0;
	b = (u64)base;
	val = base == 10 && v < 0 ? (u64)0 - (u64)v : (u64)v;
	buf[71] = '\0';
	for (int n = 0; n < 64 && val != 0; n++) {
		d = val % b;
		buf[k--] = (char)(d <= 9 ? '0' + d : 'a' + (d - 10));
		val /= b;
	}
	if (v == 0 && base == 16)
		buf[k--] = '0';
	if (base == 16)
		buf[k--] = 'x';
	if (v == 0 || base == 8 || base == 16)
		buf[k--] = '0';
	if (v < 0 && base == 10)
		buf[k--] = '-';
	if (k < 0 || k > 70)
		return 0;
	bpf_probe_read_kernel_str(dst, STRSIZE, &buf[k + 1]);
	return dst;
}

/* ---------------------------------------------------------------- paths */

struct path_ctx {
	const char *s;
	s64 len, state, lastbase, firstbase, lastdir;
};

/* backwards from the end: the basename's last byte, its first, the dirname's last */
static long path_cb(u64 k, void *c)
{
	struct path_ctx *x = c;
	s64 i = x->len - 1 - (s64)k;
	char ch;

	if (i < 0 || (u64)i >= STRSIZE)
		return 1;
	ch = x->s[i];
	if (x->state == 0 && ch != '/') {
		x->lastbase = i;
		x->state = 1;
	} else if (x->state == 1 && ch == '/') {
		x->firstbase = i + 1;
		x->state = 2;
	} else if (x->state == 2 && ch != '/') {
		x->lastdir = i;
		return 1;
	}
	return 0;
}

/* s[start..end] into dst */
static DT_FN char *span(char *dst, const char *s, s64 start, s64 end)
{
	u64 n;

	dst[0] = '\0';
	if (start < 0 || (u64)start >= STRSIZE || end < start)
		return dst;
	n = (u64)(end - start) + 1;
	if (n > STRSIZE - 1)
		n = STRSIZE - 1;
	bpf_probe_read_kernel_str(dst, (u32)n + 1, s + start);
	return dst;
}

/*
 * basename(s), dirname(s): illumos DIF_SUBR_BASENAME/DIRNAME.  "" gives
 * "."; a string of slashes "/"; trailing slashes are not part of either;
 * a name without a slash has dirname ".", one with only a leading slash
 * dirname "/".
 */
static DT_FN char *path_part(char *dst, const char *s, s64 dir)
{
	struct path_ctx x = { s, str_len(s), 0, -1, -1, -1 };

	if (x.len == 0) {
		dst[0] = '.';
		dst[1] = '\0';
		return dst;
	}
	bpf_loop(STRSIZE, path_cb, &x, 0);
	if (x.lastbase == -1) /* only slashes */
		x.firstbase = x.lastbase = x.lastdir = 0;
	if (x.firstbase == -1) {
		if (dir) {
			dst[0] = '.';
			dst[1] = '\0';
			return dst;
		}
		x.firstbase = 0;
	}
	if (dir)
		return span(dst, s, 0, x.lastdir == -1 ? 0 : x.lastdir);
	return span(dst, s, x.firstbase, x.lastbase);
}

DT_FN char *dt_basename(char *dst, const char *s)
{
	return path_part(dst, s, 0);
}

DT_FN char *dt_dirname(char *dst, const char *s)
{
	return path_part(dst, s, 1);
}

/*
 * cleanpath(s): illumos DIF_SUBR_CLEANPATH, a byte of s a step: "//" and
 * "/./" go, "/../" (and "/.." at the end) takes back the last component
 * written; the output stops 5 bytes before strsize.  The output's length
 * and the state are carried in work words w[0] and w[1] (map memory).
 */
enum { CP_TOP, CP_SLASH, CP_DOT, CP_DOTDOT, CP_END };

struct clean_ctx {
	char *dst;
	const char *s;
	u64 *w;
};

static void put(struct clean_ctx *x, char ch)
{
	u64 j = x->w[0];

	if (j >= STRSIZE)
		return;
	x->dst[j] = ch;
	x->w[0] = j + 1;
}

/* back to the last slash written (or the start) */
static long back_cb(u64 k, void *c)
{
	struct clean_ctx *x = c;
	u64 j = x->w[0];

	(void)k;
	if (j == 0 || j > STRSIZE)
		return 1;
	x->w[0] = --j;
	return x->dst[j] == '/';
}

/* a slash read at the top: on to the next component, unless the output is full */
static long slash(struct clean_ctx *x)
{
	if (x->w[0] + 5 >= STRSIZE) {
		x->w[1] = CP_END;
		return 1;
	}
	x->w[1] = CP_SLASH;
	return 0;
}

static long clean_cb(u64 i, void *c)
{
	struct clean_ctx *x = c;
	u64 st = x->w[1];
	char ch;

	if (i >= STRSIZE || st == CP_END)
		return 1;
	ch = x->s[i];
	if (st == CP_TOP) {
		if (x->w[0] + 5 >= STRSIZE) {
			x->w[1] = CP_END;
			return 1;
		}
		if (ch == '/')
			return slash(x);
		put(x, ch);
	} else if (st == CP_SLASH) {
		if (ch == '/')
			return slash(x);
		if (ch == '.') {
			x->w[1] = CP_DOT;
			return 0;
		}
		put(x, '/');
		put(x, ch);
		x->w[1] = CP_TOP;
	} else if (st == CP_DOT) {
		if (ch == '/')
			return slash(x);
		if (ch == '.') {
			x->w[1] = CP_DOTDOT;
			return 0;
		}
		put(x, '/');
		put(x, '.');
		put(x, ch);
		x->w[1] = CP_TOP;
	} else {
		if (ch != '/' && ch != '\0') {
			put(x, '/');
			put(x, '.');
			put(x, '.');
			put(x, ch);
			x->w[1] = CP_TOP;
			return 0;
		}
		/* "/../" or "/..": back to the previous slash; this slash starts the next */
		bpf_loop(STRSIZE, back_cb, x, 0);
		if (ch == '\0') {
			x->w[0] = x->w[0] + 1;
			x->w[1] = CP_END;
			return 1;
		}
		x->w[1] = CP_TOP;
		return slash(x);
	}
	if (ch == '\0') {
		x->w[1] = CP_END;
		return 1;
	}
	return 0;
}

DT_FN char *dt_cleanpath(char *dst, const char *s, u64 *w)
{
	struct clean_ctx x = { dst, s, w };
	u64 j;

	w[0] = 0;
	w[1] = CP_TOP;
	bpf_loop(STRSIZE, clean_cb, &x, 0);
	j = w[0];
	if (j >= STRSIZE)
		j = STRSIZE - 1;
	dst[j] = '\0';
	return dst;
}

/* ---------------------------------------------------------------- strtok */

/*
 * strtok's region (DT_SR_SUBR, per CPU): the saved string (STRSIZE
 * bytes), a byte saying it is there, then at STRSIZE + 8 the delimiters'
 * bitmap (32 bytes).
 */
struct tok_ctx {
	char *dst, *st;
	const char *delim;
	u8 *map;
	u64 start, end, len;
};

static long map_cb(u64 k, void *c)
{
	struct tok_ctx *x = c;
	u8 ch;

	if (k >= STRSIZE)
		return 1;
	ch = (u8)x->delim[k];
	if (ch == 0)
		return 1;
	x->map[ch >> 3] |= (u8)(1 << (ch & 7));
	return 0;
}

static int is_delim(struct tok_ctx *x, u8 ch)
{
	return (x->map[ch >> 3] >> (ch & 7)) & 1;
}

static long zero_cb(u64 k, void *c)
{
	struct tok_ctx *x = c;

	if (k >= 32)
		return 1;
	x->map[k] = 0;
	return 0;
}

/* the first byte that is not a delimiter (or the NUL) */
static long skip_cb(u64 k, void *c)
{
	struct tok_ctx *x = c;
	u8 ch;

	if (k >= STRSIZE)
		return 1;
	ch = (u8)x->st[k];
	if (ch == 0 || !is_delim(x, ch)) {
		x->start = k;
		return 1;
	}
	return 0;
}

/* the token from start, to a delimiter or the NUL; strsize - 1 bytes at most */
static long token_cb(u64 k, void *c)
{
	struct tok_ctx *x = c;
	u64 from = x->start + k;
	u8 ch;

	if (k >= STRSIZE - 1 || from >= STRSIZE) {
		x->len = k;
		x->end = from;
		return 1;
	}
	ch = (u8)x->st[from];
	if (ch == 0 || is_delim(x, ch)) {
		x->len = k;
		x->end = from;
		return 1;
	}
	x->dst[k] = (char)ch;
	return 0;
}

/* what follows the token to the front of the saved string */
static long shift_cb(u64 k, void *c)
{
	struct tok_ctx *x = c;
	u64 from = x->end + k;
	char ch;

	if (k >= STRSIZE || from >= STRSIZE) {
		if (k < STRSIZE)
			x->st[k] = '\0';
		return 1;
	}
	ch = x->st[from];
	x->st[k] = ch;
	return ch == '\0';
}

/*
 * strtok(s, delim): illumos DIF_SUBR_STRTOK.  The token of s (of the
 * saved string when s is NULL) after any delimiters, or NULL when none is
 * left (and the saved string is gone: a later strtok(NULL, ...) is NULL
 * too).  What follows the token is kept from its delimiter on.
 */
DT_FN char *dt_strtok(char *dst, const char *s, const char *delim, char *state)
{
	struct tok_ctx x = { dst, state, delim, (u8 *)state + STRSIZE + 8, STRSIZE, 0, 0 };

	if (s != 0) {
		bpf_probe_read_kernel_str(state, STRSIZE, s);
		state[STRSIZE] = 1;
	} else if (state[STRSIZE] == 0) {
		return 0;
	}
	bpf_loop(32, zero_cb, &x, 0);
	bpf_loop(STRSIZE, map_cb, &x, 0);
	bpf_loop(STRSIZE, skip_cb, &x, 0);
	if (x.start >= STRSIZE || state[x.start] == '\0') {
		state[STRSIZE] = 0;
		return 0;
	}
	bpf_loop(STRSIZE, token_cb, &x, 0);
	if (x.len >= STRSIZE)
		return 0;
	dst[x.len] = '\0';
	bpf_loop(STRSIZE, shift_cb, &x, 0);
	return dst;
}

/* ---------------------------------------------------------------- strtoll */

struct ll_ctx {
	const char *s;
	u64 start;
	s64 base, val;
};

static long ws_cb(u64 i, void *c)
{
	struct ll_ctx *x = c;
	char ch;

	if (i >= STRSIZE)
		return 1;
	ch = x->s[i];
	if (ch != ' ' && ch != '\t') {
		x->start = i;
		return 1;
	}
	return 0;
}

static long digit_cb(u64 k, void *c)
{
	struct ll_ctx *x = c;
	u64 pos = x->start + k;
	char ch;
	s64 d;

	if (pos >= STRSIZE)
		return 1;
	ch = x->s[pos];
	if (ch >= '0' && ch <= '9')
		d = ch - '0';
	else if (ch >= 'a' && ch <= 'z')
		d = ch - 'a' + 10;
	else if (ch >= 'A' && ch <= 'Z')
		d = ch - 'A' + 10;
	else
		return 1;
	if (d >= x->base)
		return 1;
	x->val = x->val * x->base + d;
	return 0;
}

static int is_xdigit(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
}

/*
 * strtoll(s [, base]): illumos's dtrace_strtoll.  Spaces and tabs first,
 * a sign, "0x" or "0X" skipped in base 16 when a hex digit follows, then
 * the digits of the base (letters either case); what follows is ignored,
 * and overflow wraps.  The caller checks the base (2 to 36).
 */
DT_FN s64 dt_strtoll(const char *s, s64 base)
{
	struct ll_ctx x = { s, STRSIZE, base, 0 };
	u64 p;
	int neg = 0;

	bpf_loop(STRSIZE, ws_cb, &x, 0);
	p = x.start;
	if (p >= STRSIZE)
		return 0;
	if (s[p] == '-' || s[p] == '+') {
		neg = s[p] == '-';
		p++;
	}
	if (base == 16 && p + 2 < STRSIZE && s[p] == '0' && (s[p + 1] == 'x' || s[p + 1] == 'X') &&
	    is_xdigit(s[p + 2]))
		p += 2;
	x.start = p;
	bpf_loop(STRSIZE, digit_cb, &x, 0);
	return neg ? (s64)((u64)0 - (u64)x.val) : x.val;
}

/* ---------------------------------------------------------------- inet */

/*
 * inet's work area, in map memory (the DT_SR_SUBR region at STRSIZE + 64,
 * 128 bytes): the address, the text written backwards from buf[k], and
 * the state of the loops, which the verifier does not track there.
 */
struct inet_w {
	u8 a[16];
	char buf[48];
	s64 k, i, first, try, num, v4at;
};

struct inet_ctx {
	struct inet_w *w;
};

static void out(struct inet_w *w, char ch)
{
	s64 k = w->k;

	if (k < 0 || k >= 48)
		return;
	w->buf[k] = ch;
	w->k = k - 1;
}

/* the IPv4 bytes a[v4at..v4at + 3], last first: decimal, dotted */
static long v4_cb(u64 n, void *c)
{
	struct inet_w *w = ((struct inet_ctx *)c)->w;
	u64 i = 3 - n, at = (u64)w->v4at + i;
	u8 v;

	if (n > 3 || at >= 16)
		return 1;
	v = w->a[at];
	if (v == 0)
		out(w, '0');
	for (int d = 0; d < 3 && v != 0; d++) {
		out(w, (char)('0' + v % 10));
		v /= 10;
	}
	if (i > 0)
		out(w, '.');
	return 0;
}

/* illumos's search for the longest run of zero groups: first, num bytes */
static long zero_run_cb(u64 i, void *c)
{
	struct inet_w *w = ((struct inet_ctx *)c)->w;
	s64 t = w->try;
	u8 b;

	if (i >= 16)
		return 1;
	b = w->a[i];
	if (b == 0 && t == -1 && i % 2 == 0) {
		w->try = (s64)i;
		return 0;
	}
	if (t != -1 && (b != 0 || i == 15)) {
		if ((s64)i - t <= w->num) {
			w->try = -1;
			return 0;
		}
		w->first = t;
		w->num = (s64)(i - i % 2) - t;
		w->try = -1;
		if (b == 0 && i == 15)
			w->num += 2;
	}
	return 0;
}

/* the group at byte i (from the last), hexadecimal, or "::" for the run */
static long group_cb(u64 n, void *c)
{
	struct inet_w *w = ((struct inet_ctx *)c)->w;
	s64 i = w->i;
	u32 val;

	if (n >= 8 || i < 0 || i > 14)
		return 1;
	if (i == w->first + w->num - 2) {
		out(w, ':');
		out(w, ':');
		w->i = i - (w->num - 2) - 2;
		return 0;
	}
	if (i < 14 && i != w->first - 2)
		out(w, ':');
	val = ((u32)w->a[i] << 8) + w->a[i + 1];
	if (val == 0)
		out(w, '0');
	for (int d = 0; d < 4 && val != 0; d++) {
		out(w, (char)(val % 16 < 10 ? '0' + val % 16 : 'a' + val % 16 - 10));
		val /= 16;
	}
	w->i = i - 2;
	return 0;
}

/*
 * inet_ntoa(p), inet_ntoa6(p), inet_ntop(af, p): illumos
 * DIF_SUBR_INET_NTOA/NTOA6/NTOP, the address read from the traced
 * process, or from scratch memory when flags has 2 (the caller checked
 * that addr is in the alloca region), NULL if it cannot be; flags 1 is
 * v4only.  af 2 is IPv4; 10 (Linux) or 26
 * (illumos) IPv6, written as RFC 1884 with the longest run of zero bytes
 * (a group or more) as "::" and a v4-mapped or v4-compatible address's
 * last 4 bytes dotted (v4only: inet_ntoa6, only those); any other af is
 * (char *)1, an illegal operation for the caller.
 */
static long inet_read(u8 *a, u32 n, const void *addr, s64 flags)
{
	if (flags & 2)
		return bpf_probe_read_kernel(a, n, addr);
	return bpf_probe_read_user(a, n, addr);
}

DT_FN char *dt_inet(char *dst, const void *addr, s64 af, s64 flags, struct inet_w *w)
{
	s64 v4only = flags & 1;
	struct inet_ctx x = { w };
	const u8 *a = w->a;
	s64 k;

	w->k = 46;
	w->buf[47] = '\0';
	w->v4at = 0;
	if (af == 2) {
		if (inet_read(w->a, 4, addr, flags) != 0)
			return 0;
		bpf_loop(4, v4_cb, &x, 0);
		goto out;
	}
	if (af != 10 && af != 26)
		return (char *)1;
	if (inet_read(w->a, 16, addr, flags) != 0)
		return 0;
	w->first = -1;
	w->try = -1;
	w->num = 1;
	bpf_loop(16, zero_run_cb, &x, 0);
	w->i = 14;
	/* v4-mapped (::ffff:a.b.c.d) or v4-compatible (::a.b.c.d, not :: or ::1) */
	if ((a[0] | a[1] | a[2] | a[3] | a[4] | a[5] | a[6] | a[7] | a[8] | a[9]) == 0 &&
	    ((a[10] == 0xff && a[11] == 0xff) ||
	     ((a[10] | a[11]) == 0 && ((a[12] | a[13] | a[14]) != 0 || a[15] > 1)))) {
		w->v4at = 12;
		bpf_loop(4, v4_cb, &x, 0);
		if (v4only)
			goto out;
		w->i = 10;
	}
	bpf_loop(8, group_cb, &x, 0);
out:
	k = w->k;
	if (k < -1 || k > 46)
		return 0;
	bpf_probe_read_kernel_str(dst, STRSIZE, &w->buf[k + 1]);
	return dst;
}

/* ---------------------------------------------------------------- json */

/*
 * json(json, element): illumos DIF_SUBR_JSON and dtrace_json(), a state
 * machine a byte of the JSON text a step, which returns the element's
 * value as its text or NULL.  What it does, and so what this does:
 *   - the element ("a.b[2].c") is cut into a list of names at each '.'
 *     and '[' (a '[' first is skipped, every ']' is dropped); an index is
 *     read as dtrace_strtoll(name, 10) reads it, so "[x]" is index 0;
 *   - the text must be an object or an array (after spaces, tabs, CR and
 *     LF); a key is matched as it is written, escapes and all;
 *   - a string value comes back without its quotes but with its escapes
 *     as written (\" stays two bytes, \u0041 six), a number, true, false
 *     or null as its text, an object or array whole, as written (its
 *     strings may hold any brace), when the element ends there;
 *   - NULL: a NUL before the element is found (the text ends, strsize
 *     bytes read), a scalar where the element wants more names, a name
 *     absent, an index past the end, and every malformed text the
 *     machine meets on its way (not what lies after the answer).
 * Its state lives in work words w[] of the DT_SR_SUBR region (map memory:
 * dt_strings.c's rule for counters carried across a bpf_loop), the list of
 * names after them (STRSIZE bytes).
 */
enum {
	JS_REST,
	JS_OBJECT,
	JS_STRING,
	JS_ESCAPE,
	JS_UNICODE,
	JS_COLON,
	JS_COMMA,
	JS_IDENT,
	JS_NUMBER,
	JS_FRAC,
	JS_EXP,
	JS_VALUE,
	JS_COLLECT,
};

/* the work words */
enum {
	JW_STATE,
	JW_DD,	     /* bytes of dst written */
	JW_ELEM,     /* the current name's offset in the list */
	JW_NELEMS,   /* names left, the current one included */
	JW_APOS,     /* the array element at hand */
	JW_AELEM,    /* the one asked for */
	JW_FLAGS,    /* JF_* */
	JW_BRACES,   /* depth of a value collected or skipped */
	JW_BRACKETS, /* (its brackets) */
	JW_UNI,	     /* \u digits read */
	JW_RES,	     /* 1: dst is the answer */
	JW_T,	     /* the list's length, then strtoll's value */
	JW_TPH,	     /* strtoll: past the spaces */
	JW_TNEG,     /* strtoll: '-' */
	JW_NEXT,     /* where the name after the current one starts */
	JW_WORDS = 16,
};

#define JF_KEY	   1u  /* the string read is a key */
#define JF_COLLECT 2u  /* ... inside a value collected */
#define JF_FOUND   4u  /* the next value is the name's */
#define JF_ARRAY   8u  /* in an array */
#define JF_BADKEY  16u /* the key read so far is not the name */

struct json_ctx {
	char *dst;
	const char *json, *elem;
	u64 *w;
	char *el; /* the list of names */
};

static int js_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int js_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int js_lower(char c)
{
	return c >= 'a' && c <= 'z';
}

/* the element cut into names: "a.b[2]" is "a\0b\02\0" */
static long names_cb(u64 k, void *c)
{
	struct json_ctx *x = c;
	u64 j = x->w[JW_T];
	char ch;

	if (k >= STRSIZE || j >= STRSIZE)
		return 1;
	ch = x->elem[k];
	if (ch == '\0')
		return 1;
	if ((k == 0 && ch == '[') || ch == ']')
		return 0;
	if (ch == '.' || ch == '[') {
		x->w[JW_NELEMS] = x->w[JW_NELEMS] + 1;
		ch = '\0';
	}
	x->el[j] = ch;
	x->w[JW_T] = j + 1;
	return 0;
}

/*
 * dtrace_strtoll(name, 10, strsize): spaces and tabs, a sign, digits;
 * then on to the name's NUL, which the next name follows
 */
static long index_cb(u64 k, void *c)
{
	struct json_ctx *x = c;
	u64 p = x->w[JW_ELEM] + k, ph = x->w[JW_TPH];
	char ch;

	if (k >= STRSIZE || p >= STRSIZE)
		return 1;
	ch = x->el[p];
	if (ch == '\0') {
		x->w[JW_NEXT] = p + 1;
		return 1;
	}
	if (ph == 0) {
		if (ch == ' ' || ch == '\t')
			return 0;
		ph = 1;
		x->w[JW_TPH] = 1;
		if (ch == '-' || ch == '+') {
			x->w[JW_TNEG] = ch == '-';
			return 0;
		}
	}
	if (ph == 1 && js_digit(ch))
		x->w[JW_T] = x->w[JW_T] * 10 + (u64)(ch - '0');
	else
		x->w[JW_TPH] = 2;
	return 0;
}

/* into an array: the index the current name asks for, found at once if 0 */
static void js_array(struct json_ctx *x)
{
	u64 v;

	x->w[JW_T] = 0;
	x->w[JW_TPH] = 0;
	x->w[JW_TNEG] = 0;
	x->w[JW_NEXT] = STRSIZE - 1;
	bpf_loop(STRSIZE, index_cb, x, 0);
	v = x->w[JW_TNEG] ? (u64)0 - x->w[JW_T] : x->w[JW_T];
	x->w[JW_AELEM] = v;
	x->w[JW_APOS] = 0;
	x->w[JW_FLAGS] = (x->w[JW_FLAGS] & ~JF_FOUND) | JF_ARRAY | (v == 0 ? JF_FOUND : 0);
	x->w[JW_STATE] = JS_VALUE;
}

static void js_put(struct json_ctx *x, char ch)
{
	u64 dd = x->w[JW_DD], e;

	if (dd >= STRSIZE - 1) /* never: what is written is part of the text */
		return;
	x->dst[dd] = ch;
	x->w[JW_DD] = dd + 1;
	if (x->w[JW_FLAGS] & JF_KEY) {
		e = x->w[JW_ELEM] + dd;
		if (e >= STRSIZE || x->el[e] != ch)
			x->w[JW_FLAGS] |= JF_BADKEY;
	}
}

/* dst ends here; the answer (1) if the element is this value, 0 to go on */
static long js_end(struct json_ctx *x)
{
	u64 dd = x->w[JW_DD];

	if (dd < STRSIZE)
		x->dst[dd] = '\0';
	x->w[JW_DD] = 0;
	if (!(x->w[JW_FLAGS] & JF_FOUND))
		return 0;
	x->w[JW_RES] = x->w[JW_NELEMS] == 1; /* more names: NULL */
	return 1;
}

/* after a value: spaces, then ',' or the end (1: NULL) */
static long js_comma(struct json_ctx *x, char ch)
{
	u64 pos;

	x->w[JW_STATE] = JS_COMMA;
	if (js_space(ch))
		return 0;
	if (ch != ',')
		return 1; /* the end of the object or array, or junk */
	if (x->w[JW_FLAGS] & JF_ARRAY) {
		x->w[JW_STATE] = JS_VALUE;
		pos = x->w[JW_APOS] + 1;
		x->w[JW_APOS] = pos;
		if (pos == x->w[JW_AELEM])
			x->w[JW_FLAGS] |= JF_FOUND;
	} else {
		x->w[JW_STATE] = JS_OBJECT;
	}
	return 0;
}

static long js_string(struct json_ctx *x, char ch)
{
	u64 f = x->w[JW_FLAGS], dd, e;

	if (ch == '\\') {
		js_put(x, ch);
		x->w[JW_STATE] = JS_ESCAPE;
		return 0;
	}
	if (ch != '"') {
		js_put(x, ch);
		return 0;
	}
	if (f & JF_COLLECT) { /* a string inside a value collected */
		js_put(x, ch);
		x->w[JW_FLAGS] = f & ~JF_COLLECT;
		x->w[JW_STATE] = JS_COLLECT;
		return 0;
	}
	if (f & JF_KEY) {
		dd = x->w[JW_DD];
		e = x->w[JW_ELEM] + dd;
		if (dd < STRSIZE)
			x->dst[dd] = '\0';
		x->w[JW_DD] = 0;
		if (!(f & JF_BADKEY) && e < STRSIZE && x->el[e] == '\0') {
			f |= JF_FOUND;
			x->w[JW_NEXT] = e + 1;
		}
		x->w[JW_FLAGS] = f & ~(JF_KEY | JF_BADKEY);
		x->w[JW_STATE] = JS_COLON;
		return 0;
	}
	if (js_end(x))
		return 1;
	x->w[JW_STATE] = JS_COMMA;
	return 0;
}

/* true, false and null; anything else is malformed */
static long js_ident(struct json_ctx *x, char ch)
{
	u64 dd = x->w[JW_DD];
	char *d = x->dst;
	int ok;

	if (js_lower(ch)) {
		js_put(x, ch);
		return 0;
	}
	if (STRSIZE < 6)
		return 1;
	ok = (dd == 4 && d[0] == 't' && d[1] == 'r' && d[2] == 'u' && d[3] == 'e') ||
	     (dd == 5 && d[0] == 'f' && d[1] == 'a' && d[2] == 'l' && d[3] == 's' && d[4] == 'e') ||
	     (dd == 4 && d[0] == 'n' && d[1] == 'u' && d[2] == 'l' && d[3] == 'l');
	if (!ok) {
		x->w[JW_RES] = 0;
		return 1;
	}
	if (js_end(x))
		return 1;
	return js_comma(x, ch); /* the byte after it, read again */
}

/* a number: digits, signs, '.', 'e' as illumos takes them (not strictly JSON's) */
static long js_number(struct json_ctx *x, char ch, u64 st)
{
	if (st == JS_NUMBER) {
		if (ch == '.') {
			js_put(x, ch);
			x->w[JW_STATE] = JS_FRAC;
			return 0;
		}
		if (ch == 'x' || ch == 'X')
			return 1;
	}
	if (st != JS_EXP) {
		if (ch == 'e' || ch == 'E') {
			js_put(x, ch);
			x->w[JW_STATE] = JS_EXP;
			return 0;
		}
		if (ch == '+' || ch == '-')
			return 1;
	}
	if (js_digit(ch) || ch == '+' || ch == '-') {
		js_put(x, ch);
		return 0;
	}
	if (js_end(x))
		return 1;
	return js_comma(x, ch);
}

static long js_value(struct json_ctx *x, char ch)
{
	if (js_space(ch))
		return 0;
	if (ch == '{' || ch == '[') {
		if (x->w[JW_NELEMS] > 1 && (x->w[JW_FLAGS] & JF_FOUND)) {
			/* into it, with the next name */
			x->w[JW_ELEM] = x->w[JW_NEXT];
			x->w[JW_NELEMS] = x->w[JW_NELEMS] - 1;
			x->w[JW_DD] = 0;
			if (ch == '[') {
				js_array(x);
			} else {
				x->w[JW_FLAGS] = x->w[JW_FLAGS] & ~(JF_ARRAY | JF_FOUND);
				x->w[JW_STATE] = JS_OBJECT;
			}
			return 0;
		}
		/* skipped, or the answer whole */
		if (ch == '[')
			x->w[JW_BRACKETS] = 1;
		else
			x->w[JW_BRACES] = 1;
		js_put(x, ch);
		x->w[JW_STATE] = JS_COLLECT;
		return 0;
	}
	if (ch == '"') {
		x->w[JW_STATE] = JS_STRING;
		return 0;
	}
	if (js_lower(ch)) {
		js_put(x, ch);
		x->w[JW_STATE] = JS_IDENT;
		return 0;
	}
	if (ch == '-' || js_digit(ch)) {
		js_put(x, ch);
		x->w[JW_STATE] = JS_NUMBER;
		return 0;
	}
	return 1;
}

/* an object or array as written, its strings' braces and brackets ignored */
static long js_collect(struct json_ctx *x, char ch)
{
	u64 braces = x->w[JW_BRACES], brackets = x->w[JW_BRACKETS], dd;

	js_put(x, ch);
	if (ch == '"') {
		x->w[JW_FLAGS] |= JF_COLLECT;
		x->w[JW_STATE] = JS_STRING;
		return 0;
	}
	if (ch == ']') {
		if (brackets == 0)
			return 1;
		brackets--;
	} else if (ch == '}') {
		if (braces == 0)
			return 1;
		braces--;
	} else if (ch == '{') {
		braces++;
	} else if (ch == '[') {
		brackets++;
	}
	x->w[JW_BRACES] = braces;
	x->w[JW_BRACKETS] = brackets;
	if (braces != 0 || brackets != 0)
		return 0;
	if (x->w[JW_FLAGS] & JF_FOUND) {
		dd = x->w[JW_DD];
		if (dd < STRSIZE)
			x->dst[dd] = '\0';
		x->w[JW_RES] = 1;
		return 1;
	}
	x->w[JW_DD] = 0;
	x->w[JW_STATE] = JS_COMMA;
	return 0;
}

static long json_cb(u64 i, void *c)
{
	struct json_ctx *x = c;
	u64 st = x->w[JW_STATE];
	char ch;

	if (i >= STRSIZE)
		return 1;
	ch = x->json[i];
	if (ch == '\0')
		return 1;
	switch (st) {
	case JS_REST:
		if (js_space(ch))
			return 0;
		if (ch == '{') {
			x->w[JW_STATE] = JS_OBJECT;
			return 0;
		}
		if (ch == '[') {
			js_array(x);
			return 0;
		}
		return 1;
	case JS_OBJECT:
		if (js_space(ch))
			return 0;
		if (ch != '"')
			return 1; /* no key: malformed, or the object ended without the name */
		x->w[JW_FLAGS] = (x->w[JW_FLAGS] & ~JF_BADKEY) | JF_KEY;
		x->w[JW_STATE] = JS_STRING;
		return 0;
	case JS_STRING: return js_string(x, ch);
	case JS_ESCAPE:
		js_put(x, ch);
		if (ch == 'u') {
			x->w[JW_UNI] = 0;
			x->w[JW_STATE] = JS_UNICODE;
		} else {
			x->w[JW_STATE] = JS_STRING;
		}
		return 0;
	case JS_UNICODE:
		if (!js_digit(ch) && !((ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F')))
			return 1;
		js_put(x, ch);
		x->w[JW_UNI] = x->w[JW_UNI] + 1;
		if (x->w[JW_UNI] == 4)
			x->w[JW_STATE] = JS_STRING;
		return 0;
	case JS_COLON:
		if (js_space(ch))
			return 0;
		if (ch != ':')
			return 1;
		x->w[JW_STATE] = JS_VALUE;
		return 0;
	case JS_COMMA: return js_comma(x, ch);
	case JS_IDENT: return js_ident(x, ch);
	case JS_NUMBER:
	case JS_FRAC:
	case JS_EXP: return js_number(x, ch, st);
	case JS_VALUE: return js_value(x, ch);
	case JS_COLLECT: return js_collect(x, ch);
	default: return 1;
	}
}

DT_FN char *dt_json(char *dst, const char *json, const char *elem, u64 *w)
{
	struct json_ctx x = { dst, json, elem, w, (char *)(w + JW_WORDS) };
	u64 j;

	w[JW_T] = 0;
	w[JW_NELEMS] = 1;
	bpf_loop(STRSIZE, names_cb, &x, 0);
	j = w[JW_T];
	if (j >= STRSIZE)
		j = STRSIZE - 1;
	x.el[j] = '\0';
	w[JW_STATE] = JS_REST;
	w[JW_DD] = 0;
	w[JW_ELEM] = 0;
	w[JW_FLAGS] = 0;
	w[JW_BRACES] = 0;
	w[JW_BRACKETS] = 0;
	w[JW_RES] = 0;
	bpf_loop(STRSIZE, json_cb, &x, 0);
	return w[JW_RES] == 1 ? dst : 0;
}
