/*
 * dg_link.c -- `dtrace -G`: a relocatable object with the probe semaphores.
 *
 * The object holds, for every declared probe, a hidden 2-byte semaphore
 * <provider>_<probe>_semaphore in its own COMDAT group of section .probes:
 * the same definition a generated header emits, so the link keeps exactly
 * one whether or not the header's copies are there too.  The objects named
 * on the command line are read (never rewritten) to check their probe sites
 * against the provider definition, which catches a stale header early.
 *
 * The file is written with libelf to a temporary name and renamed into
 * place, so a failed run never leaves a truncated object behind.
 */
#include <ar.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dg_impl.h"

/* A growing string table. */
typedef struct strtab {
	char *buf;
	size_t len, cap;
} strtab_t;

static size_t str_add(strtab_t *st, const char *s)
{
	size_t n = strlen(s) + 1, off = st->len;

	if (st->len + n > st->cap) {
		size_t cap = (st->cap ? st->cap * 2 : 256) + n;
		char *nb = realloc(st->buf, cap);

		if (nb == NULL)
			return (size_t)-1;
		st->buf = nb;
		st->cap = cap;
	}
	memcpy(st->buf + st->len, s, n);
	st->len += n;
	return off;
}

/* The programs to link: pgp alone, or every program of the handle if NULL. */
#define FOR_EACH_PROG(dtp, pgp, p)                                          \
	for (dtrace_prog_t *p = (pgp) ? (pgp) : (dtp)->dt_progs; p != NULL; \
	     p = (pgp) ? NULL : p->dp_next)

typedef struct check {
	dtrace_hdl_t *dtp;
	dtrace_prog_t *pgp;
	const char *obj;
} check_t;

static int check_note(const dt_stapsdt_note_t *n, void *arg)
{
	check_t *c = arg;

	FOR_EACH_PROG (c->dtp, c->pgp, prog)
		for (dt_provdecl_t *pv = prog->dp_providers; pv != NULL; pv = pv->pv_next) {
			if (strcmp(pv->pv_name, n->sn_provider) != 0)
				continue;
			for (dt_probedecl_t *pd = pv->pv_probes; pd != NULL; pd = pd->pd_next) {
				if (strcmp(pd->pd_name, n->sn_name) != 0)
					continue;
				if (n->sn_nargs < 0)
					return -dt_set_errmsg(
					    c->dtp, EDT_ELF,
					    "%s: probe %s:%s has a malformed argument "
					    "specification: \"%s\"",
					    c->obj, pv->pv_name, pd->pd_name, n->sn_argspec);
				if (pd->pd_nargc != n->sn_nargs)
					return -dt_set_errmsg(
					    c->dtp, EDT_ELF,
					    "%s: probe %s:%s has %d argument%s but is "
					    "declared with %d (line %u); regenerate the header",
					    c->obj, pv->pv_name, pd->pd_name, n->sn_nargs,
					    n->sn_nargs == 1 ? "" : "s", pd->pd_nargc,
					    pd->pd_loc.line);
				return 0;
			}
			return -dt_set_errmsg(c->dtp, EDT_ELF,
					      "%s: probe %s:%s is not declared by provider %s",
					      c->obj, n->sn_provider, n->sn_name, pv->pv_name);
		}
	return 0; /* another provider's probe: not ours to check */
}

/* LLVM bitcode (clang -flto), raw or in its wrapper. */
static bool is_bitcode(const unsigned char *m, size_t size)
{
	return size >= 4 && ((m[0] == 'B' && m[1] == 'C' && m[2] == 0xc0 && m[3] == 0xde) ||
			     (m[0] == 0xde && m[1] == 0xc0 && m[2] == 0x17 && m[3] == 0x0b));
}

/*
 * An ELF object whose only code is GCC's LTO IR (gcc -flto without
 * -ffat-lto-objects: it has a .gnu.lto_ section and no .text of its own).
 */
static bool is_lto_elf(Elf *elf)
{
	bool lto = false, text = false;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return false;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name;

		if (gelf_getshdr(scn, &sh) == NULL ||
		    (name = elf_strptr(elf, shstrndx, sh.sh_name)) == NULL)
			continue;
		if (strncmp(name, ".gnu.lto_", 9) == 0)
			lto = true;
		if ((sh.sh_flags & SHF_EXECINSTR) && sh.sh_size > 0)
			text = true;
	}
	return lto && !text;
}

/*
 * Check one object's probe sites against the providers.  What is wrong
 * with the file itself is worded as illumos dt_link.c process_obj words
 * it ("failed to process %s: %s" where it gives libelf's reason); a damaged
 * object is refused, never passed over: its probe sites would go unchecked.
 */
static int check_object(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, const char *obj)
{
	check_t c = { dtp, pgp, obj };
	const unsigned char *m;
	char err[256];
	size_t size;
	void *buf;
	Elf *elf;
	int fd, rc;

	/* a FIFO or a device would block or never end */
	if ((fd = open(obj, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return dt_set_errmsg(dtp, EDT_ELF, "failed to open %s: %s", obj, strerror(errno));
	rc = dt_read_file(fd, &buf, &size, err, sizeof(err));
	close(fd);
	if (rc != 0)
		return dt_set_errmsg(dtp, EDT_ELF, "%s: %s", obj, err);
	m = buf;
	rc = -1;
	/*
	 * LTO objects hold compiler IR, not code: their probe sites do not
	 * exist yet.  The semaphores do not depend on them, so they are
	 * accepted unchecked.
	 */
	if (is_bitcode(m, size))
		rc = 0;
	else if (size >= SARMAG && memcmp(m, ARMAG, SARMAG) == 0)
		dt_set_errmsg(dtp, EDT_ELF,
			      "archive files are not permitted %s; use the contents of the "
			      "archive instead",
			      obj);
	else if (size < SELFMAG || memcmp(m, ELFMAG, SELFMAG) != 0)
		dt_set_errmsg(dtp, EDT_ELF, "invalid file type for %s", obj);
	else if (size > EI_CLASS && m[EI_CLASS] != ELFCLASS64)
		dt_set_errmsg(dtp, EDT_ELF, "incorrect ELF class for object file %s", obj);
	else if (size >= sizeof(Elf64_Ehdr) && ((const Elf64_Ehdr *)buf)->e_machine != EM_X86_64)
		dt_set_errmsg(dtp, EDT_ELF, "incorrect ELF machine type for object file %s", obj);
	else if (dt_elf_check(buf, size, err, sizeof(err)) != 0)
		dt_set_errmsg(dtp, EDT_ELF, "failed to process %s: %s", obj, err);
	else if ((elf = elf_memory(buf, size)) == NULL)
		dt_set_errmsg(dtp, EDT_ELF, "failed to process %s: %s", obj, elf_errmsg(-1));
	else {
		if (is_lto_elf(elf))
			rc = 0;
		/* check_note returns 1 with the handle's message set */
		else if ((rc = dt_stapsdt_iter(elf, check_note, &c, err, sizeof(err))) == -1)
			dt_set_errmsg(dtp, EDT_ELF, "failed to process %s: %s", obj, err);
		elf_end(elf);
	}
	free(buf);
	return rc == 0 ? 0 : -1;
}

static int check_objects(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, int objc, char *const objv[])
{
	if (objc > 0 && elf_version(EV_CURRENT) == EV_NONE)
		return dt_set_errmsg(dtp, EDT_ELF, "libelf is out of date");
	for (int i = 0; i < objc; i++)
		if (check_object(dtp, pgp, objv[i]) != 0)
			return -1;
	return 0;
}

static Elf_Scn *new_section(Elf *elf, strtab_t *shstr, const char *name, GElf_Word type,
			    GElf_Xword flags, void *buf, size_t size, size_t align,
			    GElf_Xword entsize)
{
	Elf_Scn *scn = elf_newscn(elf);
	Elf_Data *d;
	GElf_Shdr sh;
	size_t off = str_add(shstr, name);

	if (scn == NULL || off == (size_t)-1 || gelf_getshdr(scn, &sh) == NULL)
		return NULL;
	sh.sh_name = (GElf_Word)off;
	sh.sh_type = type;
	sh.sh_flags = flags;
	sh.sh_addralign = align;
	sh.sh_entsize = entsize;
	if (!gelf_update_shdr(scn, &sh))
		return NULL;
	if ((d = elf_newdata(scn)) == NULL)
		return NULL;
	d->d_buf = buf;
	d->d_size = size;
	d->d_align = align;
	d->d_type = type == SHT_SYMTAB ? ELF_T_SYM : type == SHT_GROUP ? ELF_T_WORD : ELF_T_BYTE;
	return scn;
}

static int set_link(Elf_Scn *scn, size_t link, size_t info)
{
	GElf_Shdr sh;

	if (gelf_getshdr(scn, &sh) == NULL)
		return -1;
	sh.sh_link = (GElf_Word)link;
	sh.sh_info = (GElf_Word)info;
	return gelf_update_shdr(scn, &sh) ? 0 : -1;
}

int dtrace_program_link(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, unsigned dflags, const char *file,
			int objc, char *const objv[])
{
	static const unsigned char zero2[2];
	strtab_t shstr = { 0 }, str = { 0 };
	Elf64_Sym *syms = NULL;
	uint32_t *groups = NULL;
	Elf_Scn *symscn, *strscn, *shstrscn;
	Elf_Scn **members = NULL, **grps = NULL;
	size_t nsema = 0, k = 0;
	char *tmp = NULL;
	Elf *elf = NULL;
	GElf_Ehdr eh;
	int fd = -1, rc = -1;

	if (dtp == NULL)
		return -1;
	if (file == NULL || dflags != 0 || objc < 0 || (objc > 0 && objv == NULL))
		return dt_set_errno(dtp, EDT_BADARG);
	if (check_objects(dtp, pgp, objc, objv) != 0)
		return -1;
	FOR_EACH_PROG (dtp, pgp, prog)
		for (dt_provdecl_t *pv = prog->dp_providers; pv != NULL; pv = pv->pv_next)
			nsema += (size_t)pv->pv_nprobes;
	if (nsema > 30000) /* two sections each; stay below SHN_LORESERVE */
		return dt_set_errmsg(dtp, EDT_BADARG, "too many probes for one object: %zu", nsema);

	if (elf_version(EV_CURRENT) == EV_NONE)
		return dt_set_errmsg(dtp, EDT_ELF, "libelf is out of date");
	if ((tmp = malloc(strlen(file) + 16)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	sprintf(tmp, "%s.%d.tmp", file, (int)getpid() % 1000000);
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)) < 0) {
		dt_set_errmsg(dtp, EDT_OBJIO, "cannot create %s: %s", file, strerror(errno));
		free(tmp);
		return -1;
	}
	syms = calloc(nsema + 1, sizeof(*syms));
	groups = calloc(nsema * 2 + 1, sizeof(*groups));
	members = calloc(nsema + 1, sizeof(*members));
	grps = calloc(nsema + 1, sizeof(*grps));
	if (syms == NULL || groups == NULL || members == NULL || grps == NULL ||
	    str_add(&shstr, "") == (size_t)-1 || str_add(&str, "") == (size_t)-1) {
		dt_set_errno(dtp, EDT_NOMEM);
		goto out;
	}
	if ((elf = elf_begin(fd, ELF_C_WRITE, NULL)) == NULL ||
	    gelf_newehdr(elf, ELFCLASS64) == 0 || gelf_getehdr(elf, &eh) == NULL)
		goto elferr;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_type = ET_REL;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;

	/* sections: .shstrtab .strtab .symtab, then (.group .probes) per probe */
	if ((shstrscn = new_section(elf, &shstr, ".shstrtab", SHT_STRTAB, 0, NULL, 0, 1, 0)) ==
		NULL ||
	    (strscn = new_section(elf, &shstr, ".strtab", SHT_STRTAB, 0, NULL, 0, 1, 0)) == NULL ||
	    (symscn = new_section(elf, &shstr, ".symtab", SHT_SYMTAB, 0, syms,
				  (nsema + 1) * sizeof(*syms), 8, sizeof(Elf64_Sym))) == NULL)
		goto elferr;
	FOR_EACH_PROG (dtp, pgp, prog)
		for (dt_provdecl_t *pv = prog->dp_providers; pv != NULL; pv = pv->pv_next) {
			for (dt_probedecl_t *pd = pv->pv_probes; pd != NULL;
			     pd = pd->pd_next, k++) {
				char name[DT_PROVNAMELEN + DT_NAMELEN + 16];
				size_t off;

				snprintf(name, sizeof(name), "%s_%s_semaphore", pv->pv_name,
					 pd->pd_name);
				if ((off = str_add(&str, name)) == (size_t)-1) {
					dt_set_errno(dtp, EDT_NOMEM);
					goto out;
				}
				grps[k] = new_section(elf, &shstr, ".group", SHT_GROUP, 0,
						      &groups[2 * k], 2 * sizeof(uint32_t), 4, 4);
				members[k] = new_section(elf, &shstr, ".probes", SHT_PROGBITS,
							 SHF_ALLOC | SHF_WRITE | SHF_GROUP,
							 (void *)zero2, 2, 2, 0);
				if (grps[k] == NULL || members[k] == NULL)
					goto elferr;
				groups[2 * k] = GRP_COMDAT;
				groups[2 * k + 1] = (uint32_t)elf_ndxscn(members[k]);
				syms[k + 1].st_name = (Elf64_Word)off;
				syms[k + 1].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT);
				syms[k + 1].st_other = STV_HIDDEN;
				syms[k + 1].st_shndx = (Elf64_Section)elf_ndxscn(members[k]);
				syms[k + 1].st_size = 2;
				if (set_link(grps[k], elf_ndxscn(symscn), k + 1) != 0)
					goto elferr;
			}
		}
	if (new_section(elf, &shstr, ".note.GNU-stack", SHT_PROGBITS, 0, NULL, 0, 1, 0) == NULL)
		goto elferr;
	/* string tables last: now they are complete */
	{
		Elf_Data *d = elf_getdata(shstrscn, NULL), *s = elf_getdata(strscn, NULL);

		if (d == NULL || s == NULL)
			goto elferr;
		d->d_buf = shstr.buf;
		d->d_size = shstr.len;
		s->d_buf = str.buf;
		s->d_size = str.len;
	}
	if (set_link(symscn, elf_ndxscn(strscn), 1) != 0) /* locals: only the null symbol */
		goto elferr;
	eh.e_shstrndx = (Elf64_Half)elf_ndxscn(shstrscn);
	if (!gelf_update_ehdr(elf, &eh) || elf_update(elf, ELF_C_WRITE) < 0)
		goto elferr;
	if (elf_end(elf) != 0) {
		elf = NULL;
		goto elferr;
	}
	elf = NULL;
	if (fsync(fd) != 0 || close(fd) != 0) {
		fd = -1;
		dt_set_errmsg(dtp, EDT_OBJIO, "cannot write %s: %s", file, strerror(errno));
		goto out;
	}
	fd = -1;
	if (rename(tmp, file) != 0) {
		dt_set_errmsg(dtp, EDT_OBJIO, "cannot create %s: %s", file, strerror(errno));
		goto out;
	}
	rc = 0;
	goto out;
elferr:
	dt_set_errmsg(dtp, EDT_OBJIO, "cannot write %s: %s", file, elf_errmsg(-1));
out:
	if (elf != NULL)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	if (rc != 0)
		unlink(tmp);
	free(tmp);
	free(syms);
	free(groups);
	free(members);
	free(grps);
	free(shstr.buf);
	free(str.buf);
	return rc;
}
