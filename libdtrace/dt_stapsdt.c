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
#include <stdlib.h>
#include <string.h>
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
		const char *name;
		Elf_Data *data;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff;

		if (gelf_getshdr(scn, &sh) == NULL) {
			snprintf(err, errlen, "bad section header: %s", elf_errmsg(-1));
			return -1;
		}
		if (sh.sh_type != SHT_NOTE)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name == NULL || strcmp(name, ".note.stapsdt") != 0)
			continue;
		if ((data = elf_getdata(scn, NULL)) == NULL || data->d_buf == NULL) {
			snprintf(err, errlen, "cannot read .note.stapsdt: %s", elf_errmsg(-1));
			return -1;
		}
		while ((off = gelf_getnote(data, off, &nh, &noff, &doff)) > 0) {
			dt_stapsdt_note_t n;
			int rc;

			if (nh.n_type != 3 || nh.n_namesz != 8 ||
			    memcmp((char *)data->d_buf + noff, "stapsdt", 8) != 0)
				continue;
			if (dt_stapsdt_parse((char *)data->d_buf + doff, nh.n_descsz, &n) != 0) {
				snprintf(err, errlen, "malformed stapsdt note at offset %zu", doff);
				return -1;
			}
			if ((rc = cb(&n, arg)) != 0)
				return rc;
		}
	}
	return 0;
}

int dt_stapsdt_file(const char *path, dt_stapsdt_f *cb, void *arg, char *err, size_t errlen)
{
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
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf == NULL || elf_kind(elf) != ELF_K_ELF) {
		snprintf(err, errlen, "not an ELF file");
		elf_end(elf);
		close(fd);
		return -1;
	}
	rc = dt_stapsdt_iter(elf, cb, arg, err, errlen);
	elf_end(elf);
	close(fd);
	return rc;
}
