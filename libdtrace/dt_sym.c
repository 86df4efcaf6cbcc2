/*
 * dt_sym.c -- user addresses to names, as illumos' dtrace_uaddr2str: the
 * object a process maps at an address (/proc/PID/maps), and the function
 * symbol of that object that holds it (.symtab, else .dynsym: dt_elf.c).
 *
 * Processes and files are read once and kept for the handle: a process's
 * mappings are read again only when an address falls outside those known
 * (a library it loaded since), and stay known after it exits, so that an
 * address recorded before its exit still has a name at a later print.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dt_elf.h"
#include "dt_impl.h"

#define DT_SYM_MAXPROCS 256 /* processes kept; past that, all are forgotten */

typedef struct dt_symfile {
	struct dt_symfile *sf_next;
	char *sf_path;
	int sf_fd;
	Elf *sf_elf;
	dt_elfsym_t *sf_syms;
	size_t sf_nsyms;
	GElf_Phdr *sf_load;
	size_t sf_nload;
	bool sf_read; /* opened and read (at its first look-up) */
} dt_symfile_t;

typedef struct dt_symmap {
	uint64_t sm_start, sm_end, sm_pgoff;
	uint64_t sm_base;      /* where the object's first mapping starts */
	dt_symfile_t *sm_file; /* NULL: anonymous, or not a file we can read */
	const char *sm_name;   /* the object's base name ([vdso]...), or NULL */
} dt_symmap_t;

typedef struct dt_symproc {
	struct dt_symproc *sp_next;
	pid_t sp_pid;
	dt_symmap_t *sp_maps;
	size_t sp_nmaps;
	char *sp_names;	    /* the mappings' names, one block */
	uint64_t sp_readat; /* when its maps were last read (CLOCK_MONOTONIC ns) */
} dt_symproc_t;

struct dt_symtab {
	dt_symproc_t *st_procs;
	size_t st_nprocs;
	dt_symfile_t *st_files;
};

static dt_symfile_t *file_of(struct dt_symtab *t, const char *path)
{
	dt_symfile_t *f;

	for (f = t->st_files; f != NULL; f = f->sf_next)
		if (strcmp(f->sf_path, path) == 0)
			return f;
	if ((f = calloc(1, sizeof(*f))) == NULL || (f->sf_path = strdup(path)) == NULL) {
		free(f);
		return NULL;
	}
	f->sf_fd = -1;
	f->sf_next = t->st_files;
	t->st_files = f;
	return f;
}

/* Read the file's symbols and headers at its first look-up: false if it has none. */
static bool file_read(dt_symfile_t *f)
{
	if (!f->sf_read) {
		f->sf_read = true;
		if (elf_version(EV_CURRENT) != EV_NONE &&
		    (f->sf_fd = open(f->sf_path, O_RDONLY | O_CLOEXEC)) >= 0 &&
		    (f->sf_elf = elf_begin(f->sf_fd, ELF_C_READ_MMAP, NULL)) != NULL &&
		    elf_kind(f->sf_elf) == ELF_K_ELF) {
			(void)dt_elf_syms(f->sf_elf, true, &f->sf_syms, &f->sf_nsyms);
			(void)dt_elf_loads(f->sf_elf, &f->sf_load, &f->sf_nload);
		}
	}
	return f->sf_syms != NULL && f->sf_load != NULL;
}

static void proc_free(dt_symproc_t *p)
{
	free(p->sp_maps);
	free(p->sp_names);
	free(p);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Read the mappings of pid into p (replacing what it held): 0, or -1. */
static int read_maps(struct dt_symtab *t, dt_symproc_t *p)
{
	char path[64], line[PATH_MAX + 256];
	dt_symmap_t *maps = NULL;
	size_t n = 0, cap = 0, nlen = 0, ncap = 0;
	char *names = NULL;
	FILE *fp;

	p->sp_readat = now_ns();
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)p->sp_pid);
	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL) {
		unsigned long long start, end, pgoff;
		char perms[8];
		int pos = 0;
		char *file;
		size_t len;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &pgoff,
			   &pos) != 4 ||
		    pos == 0)
			continue;
		file = line + pos;
		file[strcspn(file, "\n")] = '\0';
		if (file[0] == '\0') /* anonymous memory */
			continue;
		len = strlen(file);
		if (len > 10 && strcmp(file + len - 10, " (deleted)") == 0)
			file[len -= 10] = '\0';
		bool nomem = dt_grow(&maps, &cap, n, sizeof(*maps), 16) != 0;

		while (!nomem && nlen + len + 1 > ncap) /* grows at least once each time */
			nomem = dt_grow(&names, &ncap, ncap, 1, 4096) != 0;
		if (nomem) {
			free(maps);
			free(names);
			fclose(fp);
			return -1;
		}
		memcpy(names + nlen, file, len + 1);
		maps[n] = (dt_symmap_t){ start,
					 end,
					 pgoff,
					 start - pgoff,
					 file[0] == '/' ? file_of(t, file) : NULL,
					 (const char *)(uintptr_t)nlen };
		nlen += len + 1;
		n++;
	}
	fclose(fp);
	if (n == 0) { /* an exited process (a zombie maps nothing): keep what it had */
		free(maps);
		free(names);
		return -1;
	}
	for (size_t i = 0; i < n; i++) { /* offsets into names: pointers, now it is whole */
		const char *full = names + (uintptr_t)maps[i].sm_name;
		const char *slash = strrchr(full, '/');

		maps[i].sm_name = slash != NULL ? slash + 1 : full;
		maps[i].sm_base = maps[i].sm_start;
		for (size_t j = 0; j < i; j++) /* the object starts at its first mapping */
			if (maps[j].sm_file == maps[i].sm_file && maps[i].sm_file != NULL) {
				maps[i].sm_base = maps[j].sm_base;
				break;
			}
	}
	free(p->sp_maps);
	free(p->sp_names);
	p->sp_maps = maps;
	p->sp_nmaps = n;
	p->sp_names = names;
	return 0;
}

static const dt_symmap_t *map_at(const dt_symproc_t *p, uint64_t addr)
{
	for (size_t i = 0; i < p->sp_nmaps; i++)
		if (addr >= p->sp_maps[i].sm_start && addr < p->sp_maps[i].sm_end)
			return &p->sp_maps[i];
	return NULL;
}

/* The process pid as known (*fresh: its maps were just read), or NULL out of memory. */
static dt_symproc_t *proc_of(dtrace_hdl_t *dtp, pid_t pid, bool *fresh)
{
	struct dt_symtab *t = dtp->dt_usyms;
	dt_symproc_t *p;

	*fresh = false;
	if (t == NULL && (t = dtp->dt_usyms = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	for (p = t->st_procs; p != NULL && p->sp_pid != pid; p = p->sp_next)
		;
	if (p != NULL)
		return p;
	if (t->st_nprocs >= DT_SYM_MAXPROCS) {
		while ((p = t->st_procs) != NULL) {
			t->st_procs = p->sp_next;
			proc_free(p);
		}
		t->st_nprocs = 0;
	}
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return NULL;
	p->sp_pid = pid;
	p->sp_next = t->st_procs;
	t->st_procs = p;
	t->st_nprocs++;
	(void)read_maps(t, p);
	*fresh = true;
	return p;
}

static const dt_symmap_t *lookup_map(dtrace_hdl_t *dtp, pid_t pid, uint64_t addr)
{
	bool fresh;
	dt_symproc_t *p = proc_of(dtp, pid, &fresh);
	const dt_symmap_t *m;

	if (p == NULL)
		return NULL;
	/*
	 * outside what is known: a library loaded since (an exited process
	 * keeps its maps).  Read again at most every 100 ms: an address
	 * nothing maps (uaddr(12345)) in every record must not read the maps
	 * at every print.
	 */
	if ((m = map_at(p, addr)) == NULL && !fresh && now_ns() - p->sp_readat >= 100000000ULL &&
	    read_maps(dtp->dt_usyms, p) == 0)
		m = map_at(p, addr);
	return m;
}

void dt_usym_remember(dtrace_hdl_t *dtp, pid_t pid)
{
	bool fresh;
	dt_symproc_t *p = proc_of(dtp, pid, &fresh);

	if (p != NULL && !fresh)
		(void)read_maps(dtp->dt_usyms, p);
}

static size_t underscores(const char *name)
{
	return strspn(name, "_");
}

/*
 * Of the symbols at s's address that hold as much, the name a user
 * calls it by: the fewest leading underscores, then the shortest (malloc,
 * not __libc_malloc).
 */
static const dt_elfsym_t *best_alias(const dt_symfile_t *f, const dt_elfsym_t *s)
{
	const dt_elfsym_t *best = s, *first = f->sf_syms, *end = f->sf_syms + f->sf_nsyms;

	while (s > first && s[-1].es_addr == best->es_addr)
		s--;
	for (; s < end && s->es_addr == best->es_addr; s++) {
		size_t u = underscores(s->es_name), bu = underscores(best->es_name);

		if (s->es_size >= best->es_size &&
		    (u < bu || (u == bu && strlen(s->es_name) < strlen(best->es_name))))
			best = s;
	}
	return best;
}

int dt_usym_lookup(dtrace_hdl_t *dtp, pid_t pid, uint64_t addr, dt_usym_t *u)
{
	const dt_symmap_t *m = pid > 0 ? lookup_map(dtp, pid, addr) : NULL;
	const dt_symfile_t *f;
	const dt_elfsym_t *s;
	uint64_t foff, vaddr = 0;
	bool in = false;

	memset(u, 0, sizeof(*u));
	if (m == NULL)
		return -1;
	u->us_mod = m->sm_name;
	u->us_modbase = m->sm_base;
	if ((f = m->sm_file) == NULL || !file_read(m->sm_file))
		return 0;
	/* the address in the file, then where the file's headers put that offset */
	foff = addr - m->sm_start + m->sm_pgoff;
	for (size_t i = 0; i < f->sf_nload && !in; i++) {
		const GElf_Phdr *ph = &f->sf_load[i];

		if (foff >= ph->p_offset && foff < ph->p_offset + ph->p_filesz) {
			vaddr = foff - ph->p_offset + ph->p_vaddr;
			in = true;
		}
	}
	if (!in || (s = dt_elf_sym_find(f->sf_syms, f->sf_nsyms, vaddr)) == NULL)
		return 0;
	s = best_alias(f, s);
	u->us_name = s->es_name;
	u->us_symaddr = addr - (vaddr - s->es_addr);
	return 0;
}

void dt_uaddr_str(dtrace_hdl_t *dtp, pid_t pid, uint64_t addr, char *buf, size_t len)
{
	dt_usym_t u;

	if (dt_usym_lookup(dtp, pid, addr, &u) != 0)
		snprintf(buf, len, "0x%" PRIx64, addr);
	else if (u.us_name == NULL)
		snprintf(buf, len, "%s`0x%" PRIx64, u.us_mod, addr);
	else if (addr > u.us_symaddr)
		snprintf(buf, len, "%s`%s+0x%" PRIx64, u.us_mod, u.us_name, addr - u.us_symaddr);
	else
		snprintf(buf, len, "%s`%s", u.us_mod, u.us_name);
}

void dt_usym_free(dtrace_hdl_t *dtp)
{
	struct dt_symtab *t = dtp->dt_usyms;
	dt_symproc_t *p;
	dt_symfile_t *f;

	if (t == NULL)
		return;
	while ((p = t->st_procs) != NULL) {
		t->st_procs = p->sp_next;
		proc_free(p);
	}
	while ((f = t->st_files) != NULL) {
		t->st_files = f->sf_next;
		free(f->sf_syms);
		free(f->sf_load);
		if (f->sf_elf != NULL)
			elf_end(f->sf_elf);
		if (f->sf_fd >= 0)
			close(f->sf_fd);
		free(f->sf_path);
		free(f);
	}
	free(t);
	dtp->dt_usyms = NULL;
}
