/*
 * dt_dlib.c -- the D library directory: the .d files of declarations,
 * inlines and translators (procfs.d's curpsinfo) that every program of
 * the handle is compiled after, as illumos reads /usr/lib/dtrace.
 *
 * The search path is the -L and -xlibdir directories, in order, then the
 * default one: $DTRACE_LIBDIR if set; else, for a program of the build
 * tree (the executable is under DT_BUILD_DIR: build/bin/dtrace, the unit
 * tests), the source tree's libdtrace/dlib (DT_BUILD_LIBDIR), so that it
 * runs uninstalled and never reads an older installed copy; else, for
 * libdtrace.so, the directory "dtrace" next to the library file itself
 * (where `cmake --install` puts it: an install made with --prefix, or
 * moved, reads its own); else the configured DT_LIBDIR (${libdir}/dtrace).
 * A file name found in an earlier directory hides the same name in later
 * ones.  -xnolibs reads none.
 *
 * The files are read once per handle, at its first compile (so -L given
 * after dtrace_open counts), in name order, a file after those it names
 * with #pragma D depends_on library.  Each is compiled at the first
 * program that names something it declares (declared_names), with the
 * files it depends on: a program that names nothing of a file, such as a
 * BEGIN-only one, does not pay for it (errno.d's ENOENT does not make
 * procfs.d read the kernel's BTF).  Each is compiled alone after the
 * ones kept before it: a file that fails for want of something this
 * system lacks (a provider of #pragma D depends_on provider, a kernel
 * struct its BTF does not have) is left out, with a note under -xdebug,
 * and any other error is the compile's error, naming the file and line.
 */
#define _GNU_SOURCE /* asprintf, dladdr */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dt_impl.h"

#ifndef DT_LIBDIR
#define DT_LIBDIR "/usr/local/lib/dtrace"
#endif
#ifndef DT_BUILD_LIBDIR
#define DT_BUILD_LIBDIR DT_LIBDIR
#endif

#define DT_LIB_MAX (1u << 20) /* a library file is at most 1 MB */

int dt_lib_adddir(dtrace_hdl_t *dtp, const char *dir)
{
	char **nv, *d;

	if (dir == NULL || *dir == '\0')
		return dt_set_errmsg(dtp, EDT_BADOPTVAL, "option libdir requires a value");
	if (dtp->dt_libs_read)
		return dt_set_errmsg(dtp, EDT_BADOPTVAL,
				     "libdir %s: the libraries are already read (set it before the "
				     "first compile)",
				     dir);
	nv = realloc(dtp->dt_libdirs, sizeof(char *) * (size_t)(dtp->dt_nlibdirs + 1));
	if (nv == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	dtp->dt_libdirs = nv;
	if ((d = strdup(dir)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	dtp->dt_libdirs[dtp->dt_nlibdirs++] = d;
	return 0;
}

void dt_lib_free(dtrace_hdl_t *dtp)
{
	for (int i = 0; i < dtp->dt_nlibdirs; i++)
		free(dtp->dt_libdirs[i]);
	free(dtp->dt_libdirs);
	free(dtp->dt_libnames);
	while (dtp->dt_libs != NULL) {
		dt_lib_t *l = dtp->dt_libs;

		dtp->dt_libs = l->dl_next;
		free(l->dl_path);
		free(l->dl_text);
		free(l->dl_names);
		free(l);
	}
}

const dt_lib_t *dt_lib_of(const dtrace_hdl_t *dtp, const char *file)
{
	for (const dt_lib_t *l = dtp->dt_libs; l != NULL; l = l->dl_next)
		if (l->dl_path == file)
			return l;
	return NULL;
}

void dt_lib_note(dtrace_hdl_t *dtp, const char *fmt, ...)
{
	va_list ap;

	if (!dt_option_isset(dtp, "debug"))
		return;
	va_start(ap, fmt);
	fputs("libdtrace DEBUG: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static bool is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s != NULL ? s + 1 : path;
}

/* The file's text, or NULL (a note says why). */
static char *slurp(dtrace_hdl_t *dtp, const char *path, size_t *len)
{
	FILE *fp = fopen(path, "r");
	char *buf;
	size_t n;

	if (fp == NULL) {
		dt_lib_note(dtp, "skipping library %s: %s", path, strerror(errno));
		return NULL;
	}
	if ((buf = malloc(DT_LIB_MAX + 1)) == NULL) {
		fclose(fp);
		return NULL;
	}
	n = fread(buf, 1, DT_LIB_MAX + 1, fp);
	fclose(fp);
	if (n > DT_LIB_MAX || memchr(buf, '\0', n) != NULL) {
		dt_lib_note(dtp, "skipping library %s: too large or not text", path);
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(base((*(dt_lib_t *const *)a)->dl_path),
		      base((*(dt_lib_t *const *)b)->dl_path));
}

/* Append dir's *.d files not hidden by an earlier directory's to v[*n]. */
static int read_dir(dtrace_hdl_t *dtp, const char *dir, dt_lib_t ***v, size_t *n, size_t *cap)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d == NULL) {
		dt_lib_note(dtp, "skipping library directory %s: %s", dir, strerror(errno));
		return 0;
	}
	while ((e = readdir(d)) != NULL) {
		size_t k = strlen(e->d_name);
		bool hidden = false;
		dt_lib_t *l;
		char *path;

		if (k < 3 || strcmp(e->d_name + k - 2, ".d") != 0 || e->d_name[0] == '.')
			continue;
		for (size_t i = 0; i < *n; i++)
			hidden |= strcmp(base((*v)[i]->dl_path), e->d_name) == 0;
		if (hidden)
			continue;
		if (asprintf(&path, "%s/%s", dir, e->d_name) < 0)
			goto nomem;
		if (is_dir(path)) {
			free(path);
			continue;
		}
		if ((l = calloc(1, sizeof(*l))) == NULL) {
			free(path);
			goto nomem;
		}
		l->dl_path = path;
		if (*n == *cap) {
			size_t nc = *cap ? 2 * *cap : 16;
			dt_lib_t **nv = realloc(*v, nc * sizeof(*nv));

			if (nv == NULL) {
				free(path);
				free(l);
				goto nomem;
			}
			*v = nv;
			*cap = nc;
		}
		(*v)[(*n)++] = l;
	}
	closedir(d);
	return 0;
nomem:
	closedir(d);
	return dt_set_errno(dtp, EDT_NOMEM);
}

/* The names a file's "#pragma D depends_on library NAME" lines give, one at a time. */
static const char *next_dep(const char *s, const char **end, char *name, size_t len)
{
	while ((s = strstr(s, "#pragma")) != NULL) {
		char w[4][256];
		int k = sscanf(s, "#pragma %255s %255s %255s %255s", w[0], w[1], w[2], w[3]);

		s += 7;
		if (k == 4 && strcmp(w[0], "D") == 0 && strcmp(w[1], "depends_on") == 0 &&
		    strcmp(w[2], "library") == 0) {
			snprintf(name, len, "%s", w[3]);
			*end = s;
			return name;
		}
	}
	return NULL;
}

/*
 * Put v[i] on the load list after what it depends on; a dependency
 * missing or in a cycle leaves it out (illumos' D_PRAGMA_DEPEND).
 */
static void order(dtrace_hdl_t *dtp, dt_lib_t **v, size_t n, size_t i, int *state, dt_lib_t ***tail)
{
	const char *s, *end;
	char dep[256];

	if (state[i] != 0)
		return;
	state[i] = 1; /* visiting */
	for (s = v[i]->dl_text; next_dep(s, &end, dep, sizeof(dep)) != NULL; s = end) {
		size_t j;

		for (j = 0; j < n && strcmp(base(v[j]->dl_path), dep) != 0; j++)
			;
		if (j == n || state[j] == 1 || v[j]->dl_skip) {
			dt_lib_note(dtp, "skipping library %s: %s library %s", v[i]->dl_path,
				    j == n	    ? "no"
				    : state[j] == 1 ? "a cycle through"
						    : "no usable",
				    dep);
			v[i]->dl_skip = true;
			continue;
		}
		order(dtp, v, n, j, state, tail);
		if (v[j]->dl_skip && !v[i]->dl_skip) {
			dt_lib_note(dtp, "skipping library %s: library %s is skipped",
				    v[i]->dl_path, dep);
			v[i]->dl_skip = true;
		}
	}
	state[i] = 2;
	**tail = v[i];
	*tail = &v[i]->dl_next;
}

static bool ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool ident_char(char c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

/* Is the identifier [s, s + n) in the NUL-separated list names (ending with an empty one)? */
static bool named(const char *names, const char *s, size_t n)
{
	for (const char *w = names; w != NULL && *w != '\0'; w += strlen(w) + 1)
		if (strlen(w) == n && memcmp(w, s, n) == 0)
			return true;
	return false;
}

/*
 * The names a library file declares, found by a look at its words (no
 * compile, no BTF): the name an inline gives, the last name of a typedef,
 * struct, union and enum tags and enumerators, and #define'd names.  A
 * program that uses none of any file's names is compiled without the
 * library (dt_lib_load), so that it does not pay for what the library
 * needs (procfs.d's translators read the kernel's BTF: 40 ms, 18 MB).
 * NUL-separated, an empty name last; NULL out of memory.
 */
static char *declared_names(const char *t, size_t len)
{
	char *out = malloc(len + 2), *o = out, *last = NULL;
	const char *e = t + len;
	int depth = 0, enumdepth = -1;
	bool stmt_inline = false, stmt_typedef = false, tag = false, item = false;
	size_t lastlen = 0;

	if (out == NULL)
		return NULL;
#define KEEP(s, n)                           \
	do {                                 \
		if (!named(out, (s), (n))) { \
			memcpy(o, (s), (n)); \
			o += (n);            \
			*o++ = '\0';         \
			*o = '\0';           \
		}                            \
	} while (0)
	*o = '\0';
	for (const char *p = t; p < e;) {
		if (*p == '/' && p + 1 < e && p[1] == '*') {
			const char *c = strstr(p + 2, "*/");
			p = c != NULL && c < e ? c + 2 : e;
		} else if (*p == '/' && p + 1 < e && p[1] == '/') {
			while (p < e && *p != '\n')
				p++;
		} else if (*p == '"' || *p == '\'') {
			char q = *p++;
			while (p < e && *p != q)
				p += *p == '\\' ? 2 : 1;
			p++;
		} else if (*p == '#') { /* #define NAME; other lines (#pragma) say nothing */
			const char *q = p + 1;
			while (q < e && (*q == ' ' || *q == '\t'))
				q++;
			if (e - q > 6 && strncmp(q, "define", 6) == 0) {
				for (q += 6; q < e && (*q == ' ' || *q == '\t'); q++)
					;
				const char *w = q;
				while (q < e && ident_char(*q))
					q++;
				if (q > w)
					KEEP(w, (size_t)(q - w));
			}
			while (p < e && *p != '\n')
				p++;
		} else if (ident_start(*p)) {
			const char *w = p;
			size_t n;

			while (p < e && ident_char(*p))
				p++;
			n = (size_t)(p - w);
			if (tag) {
				KEEP(w, n);
				tag = false;
			} else if (item) {
				KEEP(w, n);
			}
			item = false;
			if (depth == 0 && n == 6 && strncmp(w, "inline", 6) == 0)
				stmt_inline = true;
			else if (depth == 0 && n == 7 && strncmp(w, "typedef", 7) == 0)
				stmt_typedef = true;
			else if ((n == 6 && (strncmp(w, "struct", 6) == 0)) ||
				 (n == 5 && strncmp(w, "union", 5) == 0))
				tag = true;
			else if (n == 4 && strncmp(w, "enum", 4) == 0)
				tag = true, enumdepth = depth;
			last = (char *)w;
			lastlen = n;
		} else {
			char c = *p++;

			tag = false;
			if (c == '{') {
				depth++;
				item = enumdepth == depth - 1; /* the first enumerator */
			} else if (c == '}') {
				if (--depth == enumdepth)
					enumdepth = -1;
			} else if (c == ',' && enumdepth == depth - 1) {
				item = true;
			} else if (c == '=' && depth == 0 && stmt_inline && last != NULL) {
				KEEP(last, lastlen);
				stmt_inline = false;
			} else if (c == ';' && depth == 0) {
				if (stmt_typedef && last != NULL)
					KEEP(last, lastlen);
				stmt_inline = stmt_typedef = false;
			}
		}
	}
#undef KEEP
	return out;
}

/* Want file l and the files it depends on (#pragma D depends_on library). */
static void want(dtrace_hdl_t *dtp, dt_lib_t *l)
{
	const char *s, *end;
	char dep[256];

	if (l->dl_want)
		return;
	l->dl_want = true;
	for (s = l->dl_text; next_dep(s, &end, dep, sizeof(dep)) != NULL; s = end)
		for (dt_lib_t *d = dtp->dt_libs; d != NULL; d = d->dl_next)
			if (strcmp(base(d->dl_path), dep) == 0)
				want(dtp, d);
}

/* The order of dt_libnames: by length, then bytes. */
static int name_cmp(const char *s, size_t n, const dt_libname_t *b)
{
	if (n != b->ln_len)
		return n < b->ln_len ? -1 : 1;
	return memcmp(s, b->ln_name, n);
}

static int by_libname(const void *a, const void *b)
{
	const dt_libname_t *x = a;

	return name_cmp(x->ln_name, x->ln_len, b);
}

/*
 * Every name the files declare, sorted, so that a program's words are
 * looked up in it (1,000 clauses: 50,000 words; looking each up in every
 * file's list took 0.15 s).
 */
static int index_names(dtrace_hdl_t *dtp)
{
	size_t n = 0;

	for (dt_lib_t *l = dtp->dt_libs; l != NULL; l = l->dl_next)
		for (const char *w = l->dl_names; w != NULL && *w != '\0'; w += strlen(w) + 1)
			n++;
	if (n == 0)
		return 0;
	if ((dtp->dt_libnames = malloc(n * sizeof(dt_libname_t))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (dt_lib_t *l = dtp->dt_libs; l != NULL; l = l->dl_next)
		for (const char *w = l->dl_names; w != NULL && *w != '\0'; w += strlen(w) + 1)
			dtp->dt_libnames[dtp->dt_nlibnames++] = (dt_libname_t){ w, strlen(w), l };
	qsort(dtp->dt_libnames, n, sizeof(dt_libname_t), by_libname);
	return 0;
}

/*
 * Mark the files a program (after cpp) needs: those that declare a name it
 * uses, all of them if it names args and a provider whose args[] the
 * library translates (which file does is not known here), and the files
 * those depend on.  Does any of them remain to be compiled?
 */
static bool wanted(dtrace_hdl_t *dtp, const char *src, size_t len)
{
	const char *e = src + len;
	bool args = false, prov = false, pending = false;

	for (const char *p = src; p < e;) {
		if (!ident_start(*p)) {
			p++;
			continue;
		}
		const char *w = p;
		size_t lo = 0, hi = dtp->dt_nlibnames;

		while (p < e && ident_char(*p))
			p++;
		/* the first declaration of the name, then every file that declares it */
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (name_cmp(w, (size_t)(p - w), &dtp->dt_libnames[mid]) > 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < dtp->dt_nlibnames &&
		       name_cmp(w, (size_t)(p - w), &dtp->dt_libnames[lo]) == 0;
		     lo++) {
			dt_lib_t *l = dtp->dt_libnames[lo].ln_lib;

			if (!l->dl_skip && !l->dl_want)
				want(dtp, l);
		}
		args |= p - w == 4 && memcmp(w, "args", 4) == 0;
		prov |= dt_probe_dlib_provider(w, (size_t)(p - w));
	}
	for (dt_lib_t *l = dtp->dt_libs; l != NULL; l = l->dl_next) {
		if (args && prov)
			want(dtp, l);
		pending |= l->dl_want && !l->dl_tried && !l->dl_skip;
	}
	return pending;
}

static int read_libs(dtrace_hdl_t *dtp);
static int try_libs(dtrace_hdl_t *dtp);

int dt_lib_load(dtrace_hdl_t *dtp, const char *src, size_t len)
{
	if (!dtp->dt_libs_read && read_libs(dtp) != 0)
		return -1;
	if (src == NULL)
		for (dt_lib_t *l = dtp->dt_libs; l != NULL; l = l->dl_next)
			want(dtp, l);
	else if (!wanted(dtp, src, len))
		return 0;
	return try_libs(dtp);
}

/* Is path (a file's absolute path) under the build tree? */
static bool in_build_tree(const char *path)
{
#if defined(DT_BUILD_LIBDIR) && defined(DT_BUILD_DIR)
	return strncmp(path, DT_BUILD_DIR "/", strlen(DT_BUILD_DIR) + 1) == 0;
#else
	(void)path;
	return false;
#endif
}

/* The default directory (see the top of the file); buf holds a path made here. */
static const char *default_dir(char *buf, size_t size)
{
	const char *env = getenv("DTRACE_LIBDIR");
	ssize_t k;

	if (env != NULL && *env != '\0')
		return env;
	k = readlink("/proc/self/exe", buf, size - 1);
	if (k > 0 && (buf[k] = '\0', in_build_tree(buf)))
		return DT_BUILD_LIBDIR;
#ifdef DT_SHARED_LIBRARY
	{
		Dl_info info;
		char *slash;
		struct stat st;

		/* libdtrace.so's own file: an install's lib dir holds dtrace/ */
		if (dladdr((void *)default_dir, &info) != 0 && info.dli_fname != NULL &&
		    info.dli_fname[0] == '/' && size >= PATH_MAX &&
		    strlen(info.dli_fname) + sizeof("/dtrace") <= size) {
			/* the file's plain path (the loader's may be bin/../lib/...) */
			if (realpath(info.dli_fname, buf) == NULL)
				strcpy(buf, info.dli_fname);
			if ((slash = strrchr(buf, '/')) != NULL) {
				strcpy(slash + 1, "dtrace");
				if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
					return buf;
			}
		}
	}
#endif
	return DT_LIBDIR;
}

/* Find, read and order the files (once per handle). */
static int read_libs(dtrace_hdl_t *dtp)
{
	dt_lib_t **v = NULL, **tail;
	size_t n = 0, cap = 0;
	int *state, err = 0;

	dtp->dt_libs_read = true;
	if (dt_option_isset(dtp, "nolibs"))
		return 0;
	for (int i = 0; i < dtp->dt_nlibdirs && err == 0; i++)
		err = read_dir(dtp, dtp->dt_libdirs[i], &v, &n, &cap);
	if (err == 0) {
		char own[PATH_MAX];

		err = read_dir(dtp, default_dir(own, sizeof(own)), &v, &n, &cap);
	}
	if (err != 0 || n == 0 || (state = calloc(n, sizeof(int))) == NULL) {
		for (size_t i = 0; i < n; i++) {
			free(v[i]->dl_path);
			free(v[i]);
		}
		free(v);
		return err != 0 ? err : n == 0 ? 0 : dt_set_errno(dtp, EDT_NOMEM);
	}
	qsort(v, n, sizeof(*v), by_name);
	for (size_t i = 0; i < n; i++) {
		if ((v[i]->dl_text = slurp(dtp, v[i]->dl_path, &v[i]->dl_len)) == NULL)
			v[i]->dl_skip = true;
		else if ((v[i]->dl_names = declared_names(v[i]->dl_text, v[i]->dl_len)) == NULL)
			err = dt_set_errno(dtp, EDT_NOMEM);
	}
	tail = &dtp->dt_libs;
	for (size_t i = 0; i < n; i++)
		order(dtp, v, n, i, state, &tail);
	*tail = NULL;
	free(state);
	free(v);
	return err != 0 ? err : index_names(dtp);
}

/* Compile each file alone after the ones kept so far (once, for the first program that wants them). */
static int try_libs(dtrace_hdl_t *dtp)
{
	for (dt_lib_t *l = dtp->dt_libs; l != NULL; l = l->dl_next) {
		dtrace_prog_t *pgp;

		if (l->dl_skip || l->dl_tried || !l->dl_want)
			continue;
		l->dl_tried = true;
		dtp->dt_libtry = l;
		dtp->dt_libmiss = false;
		pgp =
		    dtrace_program_strcompile(dtp, "", NULL, DT_C_FRONTEND | DT_C_LIBTRY, 0, NULL);
		dtp->dt_libtry = NULL;
		if (pgp != NULL) {
			dtrace_program_destroy(dtp, pgp);
			l->dl_ok = true;
			dtp->dt_lib_procfs |= l->dl_procfs;
			continue;
		}
		if (dtp->dt_errno == EDT_COMPILER &&
		    (dtp->dt_libmiss || strcmp(dtp->dt_diagtag, "D_PRAGMA_DEPEND") == 0)) {
			dt_lib_note(dtp, "skipping library %s: %s", l->dl_path,
				    dtrace_errmsg(dtp, dtp->dt_errno));
			l->dl_skip = true;
			continue;
		}
		return -1; /* the library's error, its file and line */
	}
	return 0;
}
