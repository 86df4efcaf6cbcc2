/*
 * dt_stapsdt.c -- reading stapsdt probe notes (.note.stapsdt, type 3) from
 * ELF files: the probes of dtrace -h sites, of libusdt images and of any
 * third-party program built with <sys/sdt.h>.
 *
 * Every length and offset is checked: ELF files are input like any other.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dt_impl.h"

static const char *take_str(const char **p, const char *end)
{
	const char *s = *p;
	const char *nul = memchr(s, '\0', (size_t)(end - s));

	if (nul == NULL)
		return NULL;
	*p = nul + 1;
	return s;
}

/* Split an argument spec; checks the size@operand shape of every word. */
static int parse_args(dt_stapsdt_note_t *n)
{
	const char *p = n->sn_argspec;

	n->sn_nargs = 0;
	for (;;) {
		dt_stapsdt_arg_t *a;
		const char *at, *e;
		long sz;
		char *end;

		while (*p == ' ')
			p++;
		if (*p == '\0')
			return 0;
		if (n->sn_nargs == DT_MAXPROBEARGS)
			return -1;
		for (e = p; *e != '\0' && *e != ' '; e++)
			;
		a = &n->sn_args[n->sn_nargs];
		at = memchr(p, '@', (size_t)(e - p));
		if (at == NULL) { /* old form without size: operand only, 8 bytes */
			a->sa_size = 8;
			a->sa_signed = false;
			a->sa_float = false;
			at = p - 1;
		} else {
			errno = 0;
			sz = strtol(p, &end, 10);
			/* <sys/sdt.h> marks a floating-point argument "4f@" or "8f@" */
			a->sa_float = end + 1 == at && *end == 'f' && sz > 0;
			if (a->sa_float && sz != 4 && sz != 8)
				return -1;
			if ((end != at && !a->sa_float) || errno != 0 || sz == 0 || sz < -8 ||
			    sz > 8 || (labs(sz) & (labs(sz) - 1)) != 0)
				return -1;
			a->sa_size = (int)labs(sz);
			a->sa_signed = sz < 0;
		}
		if (e - at - 1 <= 0 || (size_t)(e - at - 1) >= sizeof(a->sa_operand))
			return -1;
		memcpy(a->sa_operand, at + 1, (size_t)(e - at - 1));
		a->sa_operand[e - at - 1] = '\0';
		n->sn_nargs++;
		p = e;
	}
}

int dt_stapsdt_args(const char *spec, dt_stapsdt_arg_t *args)
{
	dt_stapsdt_note_t n;

	memset(&n, 0, sizeof(n));
	n.sn_argspec = spec;
	if (parse_args(&n) != 0)
		return -1;
	memcpy(args, n.sn_args, sizeof(n.sn_args));
	return n.sn_nargs;
}

int dt_stapsdt_parse(const void *desc, size_t len, dt_stapsdt_note_t *n)
{
	const char *p = desc, *end = p + len;
	uint64_t v[3];

	memset(n, 0, sizeof(*n));
	if (len < 3 * 8 + 3)
		return -1;
	memcpy(v, p, sizeof(v));
	n->sn_pc = v[0];
	n->sn_base = v[1];
	n->sn_sema = v[2];
	p += 24;
	if ((n->sn_provider = take_str(&p, end)) == NULL ||
	    (n->sn_name = take_str(&p, end)) == NULL)
		return -1;
	/* some writers omit the argument string of an argument-less probe */
	n->sn_argspec = p < end ? take_str(&p, end) : "";
	if (n->sn_argspec == NULL || *n->sn_provider == '\0' || *n->sn_name == '\0')
		return -1;
	/* a spec we cannot parse spoils that probe's arguments, not the note */
	if (parse_args(n) != 0)
		n->sn_nargs = -1;
	return 0;
}

/* ---------------------------------------------------------------- the layout of a file */

/* An error message naming section i; always -1. */
static int scn_err(char *err, size_t errlen, size_t i, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static int scn_err(char *err, size_t errlen, size_t i, const char *name, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(err, errlen, name != NULL ? "section %zu (%s): " : "section %zu%s: ", i,
		     name != NULL ? name : "");
	if (n < 0 || (size_t)n >= errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Does [off, off + len) lie within size bytes? */
static bool within(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

/*
 * The entries of a SHT_REL/SHT_RELA section: each names a symbol of its
 * symbol table and, in a relocatable object, a place in its target section.
 */
static int check_relocs(const unsigned char *img, const Elf64_Ehdr *eh, const Elf64_Shdr *sh,
			size_t shnum, size_t i, const char *name, char *err, size_t errlen)
{
	const Elf64_Shdr *r = &sh[i];
	size_t ent = r->sh_type == SHT_RELA ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
	uint64_t nsyms = 0, tsize = 0;

	if (r->sh_entsize != ent || r->sh_size % ent != 0)
		return scn_err(err, errlen, i, name,
			       "entry size %" PRIu64 " or size %" PRIu64
			       " does not fit relocations of %zu bytes",
			       (uint64_t)r->sh_entsize, (uint64_t)r->sh_size, ent);
	if (r->sh_link != 0 || eh->e_type == ET_REL) { /* an object's relocations need symbols */
		if (r->sh_link == 0 || r->sh_link >= shnum ||
		    (sh[r->sh_link].sh_type != SHT_SYMTAB && sh[r->sh_link].sh_type != SHT_DYNSYM))
			return scn_err(
			    err, errlen, i, name,
			    "symbol table index %u is out of range or not a symbol table",
			    (unsigned)r->sh_link);
		nsyms = sh[r->sh_link].sh_size / sizeof(Elf64_Sym);
	}
	if (eh->e_type == ET_REL &&
	    (r->sh_info == 0 || r->sh_info >= shnum || sh[r->sh_info].sh_type == SHT_NULL))
		return scn_err(err, errlen, i, name,
			       "target section index %u is out of range or an unused section",
			       (unsigned)r->sh_info);
	if (eh->e_type == ET_REL) {
		const Elf64_Shdr *t = &sh[r->sh_info];
		Elf64_Chdr ch;

		tsize = t->sh_size;
		/*
		 * Relocations apply to a compressed section's data (-gz)
		 * uncompressed.  Only sections with data were placed in the file.
		 */
		if ((t->sh_flags & SHF_COMPRESSED) && t->sh_type != SHT_NOBITS &&
		    t->sh_type != SHT_NULL) {
			if (t->sh_size < sizeof(ch))
				return scn_err(err, errlen, i, name,
					       "target section %u is compressed but too short for "
					       "its header",
					       (unsigned)r->sh_info);
			memcpy(&ch, img + t->sh_offset, sizeof(ch));
			tsize = ch.ch_size;
		}
	}
	for (uint64_t k = 0; k < r->sh_size / ent; k++) {
		Elf64_Rela rel;

		memcpy(&rel, img + r->sh_offset + k * ent, ent); /* r_offset, r_info come first */
		if (r->sh_link != 0 && ELF64_R_SYM(rel.r_info) >= nsyms)
			return scn_err(err, errlen, i, name,
				       "relocation %" PRIu64 " names symbol %" PRIu64
				       ", the table has %" PRIu64,
				       k, (uint64_t)ELF64_R_SYM(rel.r_info), nsyms);
		if (eh->e_type == ET_REL && sh[r->sh_info].sh_type != SHT_NOBITS &&
		    !within(rel.r_offset, 1, tsize))
			return scn_err(err, errlen, i, name,
				       "relocation %" PRIu64 " at offset %" PRIu64
				       " is past the end of section %u (%" PRIu64 " bytes)",
				       k, (uint64_t)rel.r_offset, (unsigned)r->sh_info, tsize);
	}
	return 0;
}

/* The symbols of a SHT_SYMTAB/SHT_DYNSYM section: names in its string table. */
static int check_syms(const unsigned char *img, const Elf64_Shdr *sh, size_t shnum, size_t i,
		      const char *name, char *err, size_t errlen)
{
	const Elf64_Shdr *s = &sh[i];
	uint64_t strsz;

	if (s->sh_entsize != sizeof(Elf64_Sym) || s->sh_size % sizeof(Elf64_Sym) != 0)
		return scn_err(err, errlen, i, name,
			       "entry size %" PRIu64 " or size %" PRIu64
			       " does not fit symbols of %zu bytes",
			       (uint64_t)s->sh_entsize, (uint64_t)s->sh_size, sizeof(Elf64_Sym));
	if (s->sh_link == 0 || s->sh_link >= shnum || sh[s->sh_link].sh_type != SHT_STRTAB)
		return scn_err(err, errlen, i, name,
			       "string table index %u is out of range or not a string table",
			       (unsigned)s->sh_link);
	strsz = sh[s->sh_link].sh_size;
	for (uint64_t k = 0; k < s->sh_size / sizeof(Elf64_Sym); k++) {
		Elf64_Sym sym;

		memcpy(&sym, img + s->sh_offset + k * sizeof(sym), sizeof(sym));
		if (sym.st_name != 0 && sym.st_name >= strsz)
			return scn_err(err, errlen, i, name,
				       "symbol %" PRIu64 "'s name offset %u is past the end of its "
				       "string table (%" PRIu64 " bytes)",
				       k, (unsigned)sym.st_name, strsz);
		if (sym.st_shndx >= shnum && sym.st_shndx < SHN_LORESERVE)
			return scn_err(err, errlen, i, name,
				       "symbol %" PRIu64 "'s section index %u is out of range", k,
				       (unsigned)sym.st_shndx);
	}
	return 0;
}

/* The sections, their headers in sh[shnum] (an aligned copy); names from section shstrndx. */
static int check_sections(const unsigned char *img, size_t size, const Elf64_Ehdr *eh,
			  const Elf64_Shdr *sh, size_t shnum, size_t shstrndx, char *err,
			  size_t errlen)
{
	const char *shstr = NULL;
	uint64_t shstrsz = 0;

	/* without names, .note.stapsdt cannot be found: its probe sites would go unread */
	if (shstrndx == SHN_UNDEF && shnum > 1) {
		snprintf(err, errlen, "no section name table (%zu sections)", shnum);
		return -1;
	}
	if (shstrndx != SHN_UNDEF) {
		if (shstrndx >= shnum || sh[shstrndx].sh_type != SHT_STRTAB) {
			snprintf(err, errlen,
				 "section name table index %zu is out of range or not a string "
				 "table (%zu sections)",
				 shstrndx, shnum);
			return -1;
		}
		if (!within(sh[shstrndx].sh_offset, sh[shstrndx].sh_size, size) ||
		    sh[shstrndx].sh_size == 0 ||
		    img[sh[shstrndx].sh_offset + sh[shstrndx].sh_size - 1] != '\0') {
			snprintf(err, errlen,
				 "section name table is empty, past the end of the file or not "
				 "NUL-terminated");
			return -1;
		}
		shstr = (const char *)img + sh[shstrndx].sh_offset;
		shstrsz = sh[shstrndx].sh_size;
	}
	/* first every section's place, then what refers to other sections */
	for (size_t i = 1; i < shnum; i++) {
		const char *name =
		    shstr != NULL && sh[i].sh_name < shstrsz ? shstr + sh[i].sh_name : NULL;

		if (shstr != NULL && name == NULL)
			return scn_err(err, errlen, i, NULL,
				       "name offset %u is past the end of the section name table",
				       (unsigned)sh[i].sh_name);
		if (sh[i].sh_type != SHT_NOBITS && sh[i].sh_type != SHT_NULL &&
		    !within(sh[i].sh_offset, sh[i].sh_size, size))
			return scn_err(err, errlen, i, name,
				       "offset %" PRIu64 " and size %" PRIu64
				       " are past the end of the file (%zu bytes)",
				       (uint64_t)sh[i].sh_offset, (uint64_t)sh[i].sh_size, size);
		if (sh[i].sh_addralign > 1 && (sh[i].sh_addralign & (sh[i].sh_addralign - 1)) != 0)
			return scn_err(err, errlen, i, name,
				       "alignment %" PRIu64 " is not a power of 2",
				       (uint64_t)sh[i].sh_addralign);
	}
	for (size_t i = 1; i < shnum; i++) {
		const char *name = shstr != NULL ? shstr + sh[i].sh_name : NULL;

		switch (sh[i].sh_type) {
		case SHT_SYMTAB:
		case SHT_DYNSYM:
			if (check_syms(img, sh, shnum, i, name, err, errlen) != 0)
				return -1;
			break;
		case SHT_REL:
		case SHT_RELA:
			if (check_relocs(img, eh, sh, shnum, i, name, err, errlen) != 0)
				return -1;
			break;
		case SHT_GROUP:
			if (sh[i].sh_entsize != 4 || sh[i].sh_size % 4 != 0 || sh[i].sh_size == 0)
				return scn_err(err, errlen, i, name,
					       "entry size %" PRIu64 " or size %" PRIu64
					       " does not fit a group",
					       (uint64_t)sh[i].sh_entsize, (uint64_t)sh[i].sh_size);
			/* its signature: a symbol of its symbol table */
			if (sh[i].sh_link == 0 || sh[i].sh_link >= shnum ||
			    sh[sh[i].sh_link].sh_type != SHT_SYMTAB ||
			    sh[i].sh_info >= sh[sh[i].sh_link].sh_size / sizeof(Elf64_Sym))
				return scn_err(
				    err, errlen, i, name,
				    "symbol table %u or signature symbol %u is out of range",
				    (unsigned)sh[i].sh_link, (unsigned)sh[i].sh_info);
			for (uint64_t k = 1; k < sh[i].sh_size / 4; k++) {
				uint32_t m;

				memcpy(&m, img + sh[i].sh_offset + k * 4, 4);
				if (m == 0 || m >= shnum)
					return scn_err(err, errlen, i, name,
						       "member %u is out of range", (unsigned)m);
			}
			break;
		default: break;
		}
	}
	return 0;
}

int dt_elf_check(const void *image, size_t size, char *err, size_t errlen)
{
	const unsigned char *img = image;
	Elf64_Shdr sh0, *sh;
	Elf64_Ehdr eh;
	size_t shnum, shstrndx, phnum;
	int rc;

	if (size < SELFMAG || memcmp(img, ELFMAG, SELFMAG) != 0) {
		snprintf(err, errlen, "not an ELF file");
		return -1;
	}
	if (size < sizeof(eh)) {
		snprintf(err, errlen, "ELF header is truncated: the file has %zu bytes", size);
		return -1;
	}
	memcpy(&eh, img, sizeof(eh));
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64) {
		snprintf(err, errlen, "not an x86-64 ELF file");
		return -1;
	}
	if (eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_ident[EI_VERSION] != EV_CURRENT ||
	    eh.e_version != EV_CURRENT || eh.e_ehsize != sizeof(eh)) {
		snprintf(err, errlen,
			 "ELF header is damaged (data encoding %u, version %u/%u, header size %u)",
			 eh.e_ident[EI_DATA], eh.e_ident[EI_VERSION], (unsigned)eh.e_version,
			 (unsigned)eh.e_ehsize);
		return -1;
	}
	/* the section headers: with extended numbering, the counts are in section 0 */
	shnum = eh.e_shnum;
	shstrndx = eh.e_shstrndx;
	phnum = eh.e_phnum;
	if (eh.e_shoff == 0) {
		if (shnum != 0 || shstrndx != SHN_UNDEF || phnum == PN_XNUM) {
			snprintf(err, errlen, "%zu sections but no section header table", shnum);
			return -1;
		}
	} else {
		if (eh.e_shentsize != sizeof(Elf64_Shdr)) {
			snprintf(err, errlen, "section header size is %u, not %zu",
				 (unsigned)eh.e_shentsize, sizeof(Elf64_Shdr));
			return -1;
		}
		if (!within(eh.e_shoff, sizeof(Elf64_Shdr), size)) {
			snprintf(err, errlen,
				 "section header table offset %" PRIu64
				 " is past the end of the file (%zu bytes)",
				 (uint64_t)eh.e_shoff, size);
			return -1;
		}
		memcpy(&sh0, img + eh.e_shoff, sizeof(sh0));
		if (shnum == 0)
			shnum = sh0.sh_size > SIZE_MAX ? SIZE_MAX : (size_t)sh0.sh_size;
		if (shstrndx == SHN_XINDEX)
			shstrndx = sh0.sh_link;
		if (phnum == PN_XNUM)
			phnum = sh0.sh_info;
		if (shnum == 0 || shnum > (size - eh.e_shoff) / sizeof(Elf64_Shdr)) {
			snprintf(
			    err, errlen,
			    "section header table is truncated: %zu sections at offset %" PRIu64
			    ", the file has %zu bytes",
			    shnum, (uint64_t)eh.e_shoff, size);
			return -1;
		}
	}
	/* the program headers, which libelf reads too */
	if (phnum != 0 &&
	    (eh.e_phentsize != sizeof(Elf64_Phdr) || phnum > size / sizeof(Elf64_Phdr) ||
	     !within(eh.e_phoff, phnum * sizeof(Elf64_Phdr), size))) {
		snprintf(err, errlen,
			 "program header table (%zu entries of %u bytes at offset %" PRIu64
			 ") is past the end of the file (%zu bytes)",
			 phnum, (unsigned)eh.e_phentsize, (uint64_t)eh.e_phoff, size);
		return -1;
	}
	if (eh.e_shoff == 0)
		return 0;
	/* a copy: the table may sit at any offset, a pointer into img could be misaligned */
	if ((sh = malloc(shnum * sizeof(*sh))) == NULL) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -1;
	}
	memcpy(sh, img + eh.e_shoff, shnum * sizeof(*sh));
	rc = check_sections(img, size, &eh, sh, shnum, shstrndx, err, errlen);
	free(sh);
	return rc;
}

/* ---------------------------------------------------------------- the notes of a file */

int dt_stapsdt_iter(Elf *elf, dt_stapsdt_f *cb, void *arg, char *err, size_t errlen)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Ehdr eh;

	if (gelf_getehdr(elf, &eh) == NULL || elf_getshdrstrndx(elf, &shstrndx) != 0) {
		snprintf(err, errlen, "not a valid ELF file: %s", elf_errmsg(-1));
		return -1;
	}
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64) {
		snprintf(err, errlen, "not an x86-64 ELF file");
		return -1;
	}
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name, *buf;
		Elf_Data *data;
		size_t off = 0;

		if (gelf_getshdr(scn, &sh) == NULL) {
			snprintf(err, errlen, "bad section header: %s", elf_errmsg(-1));
			return -1;
		}
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name == NULL || strcmp(name, ".note.stapsdt") != 0)
			continue;
		/* the probes' section turned into something else would hide them */
		if (sh.sh_type != SHT_NOTE) {
			snprintf(err, errlen, ".note.stapsdt is not a note section (type %u)",
				 (unsigned)sh.sh_type);
			return -1;
		}
		if ((data = elf_getdata(scn, NULL)) == NULL ||
		    (data->d_buf == NULL && data->d_size != 0)) {
			snprintf(err, errlen, "cannot read .note.stapsdt: %s", elf_errmsg(-1));
			return -1;
		}
		/*
		 * Walked by hand, not with gelf_getnote(), which ends the walk
		 * without a word at a note that does not fit: a damaged note
		 * would hide every probe after it, and -G would check none of
		 * them.  Trailing zero bytes are padding.
		 */
		buf = data->d_buf;
		while (off < data->d_size) {
			dt_stapsdt_note_t n;
			uint32_t hdr[3]; /* namesz, descsz, type */
			size_t left = data->d_size - off, nsz, dsz;
			int rc;

			if (left < sizeof(hdr)) {
				while (off < data->d_size && buf[off] == '\0')
					off++;
				if (off == data->d_size)
					break;
				snprintf(
				    err, errlen,
				    ".note.stapsdt: note at offset %zu is truncated: %zu bytes",
				    off, left);
				return -1;
			}
			memcpy(hdr, buf + off, sizeof(hdr));
			nsz = ((size_t)hdr[0] + 3) & ~(size_t)3;
			dsz = ((size_t)hdr[1] + 3) & ~(size_t)3;
			if (nsz > left - sizeof(hdr) || dsz > left - sizeof(hdr) - nsz) {
				snprintf(err, errlen,
					 ".note.stapsdt: note at offset %zu (name size %u, "
					 "descriptor size %u) is past the end of the section "
					 "(%zu bytes)",
					 off, hdr[0], hdr[1], data->d_size);
				return -1;
			}
			off += sizeof(hdr);
			/*
			 * <sys/sdt.h> and dtrace -h put nothing else in this
			 * section (linkers merge it by name): another note here is
			 * a damaged header, and what follows it cannot be trusted.
			 */
			if (hdr[2] != 3 || hdr[0] != 8 || memcmp(buf + off, "stapsdt", 8) != 0) {
				snprintf(err, errlen,
					 ".note.stapsdt: note at offset %zu is not a stapsdt note "
					 "(name size %u, type %u)",
					 off - sizeof(hdr), hdr[0], hdr[2]);
				return -1;
			}
			if (dt_stapsdt_parse(buf + off + nsz, hdr[1], &n) != 0) {
				snprintf(err, errlen, "malformed stapsdt note at offset %zu",
					 off + nsz);
				return -1;
			}
			if ((rc = cb(&n, arg)) != 0)
				return rc;
			off += nsz + dsz;
		}
	}
	return 0;
}

int dt_read_file(int fd, void **bufp, size_t *sizep, char *err, size_t errlen)
{
	struct stat st;
	char *buf;
	size_t got = 0;

	*bufp = NULL;
	*sizep = 0;
	if (fstat(fd, &st) != 0) {
		snprintf(err, errlen, "cannot read: %s", strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "not a regular file");
		return -1;
	}
	if ((uint64_t)st.st_size >= SIZE_MAX ||
	    (buf = malloc((size_t)st.st_size + 1)) == NULL) { /* +1: never malloc(0) */
		snprintf(err, errlen, "cannot read: %s", strerror(ENOMEM));
		return -1;
	}
	/* a file that shrinks while read is read as it is now; one that grows, as it was */
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "cannot read: %s", strerror(errno));
			free(buf);
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	*bufp = buf;
	*sizep = got;
	return 0;
}

int dt_stapsdt_file(const char *path, dt_stapsdt_f *cb, void *arg, char *err, size_t errlen)
{
	size_t size;
	void *buf;
	int fd, rc;
	Elf *elf;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errlen, "libelf is out of date");
		return -1;
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0) { /* a FIFO must not block */
		snprintf(err, errlen, "cannot open: %s", strerror(errno));
		return -1;
	}
	rc = dt_read_file(fd, &buf, &size, err, errlen);
	close(fd);
	if (rc != 0)
		return -1;
	/* libelf trusts the headers' offsets and counts: check them first */
	if (dt_elf_check(buf, size, err, errlen) != 0) {
		free(buf);
		return -1;
	}
	if ((elf = elf_memory(buf, size)) == NULL || elf_kind(elf) != ELF_K_ELF) {
		snprintf(err, errlen, "not an ELF file");
		rc = -1;
	} else {
		rc = dt_stapsdt_iter(elf, cb, arg, err, errlen);
	}
	elf_end(elf);
	free(buf);
	return rc;
}
