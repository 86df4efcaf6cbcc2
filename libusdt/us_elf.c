/*
 * us_elf.c -- the ELF image of a runtime provider, written with libelf.
 *
 * Layout (vaddr == file offset, ET_DYN, so tools need no relocation):
 *
 *   0x0000  ELF header, program headers                 PT_LOAD R
 *   0x0400  .note.gnu.build-id (a hash of the image)    PT_NOTE
 *   0x0800  .stapsdt.base (1 byte)
 *   0x1000  .text: one 16-byte function per probe       PT_LOAD R+X
 *   P       .probes: one 2-byte semaphore per probe     PT_LOAD R+W
 *   then    .note.stapsdt, .symtab, .strtab, .shstrtab, section headers
 *
 * A probe function is a 5-byte nop (or a 1-byte one with USDT_SITE_NOP1)
 * and `ret`; the note points at the nop, where the function has just been
 * called: the arguments are in the SysV argument registers and, from the
 * seventh on, at 8(%rsp), 16(%rsp), ...  Every argument is passed as 64
 * bits; the note's size and sign say how consumers read it.
 */
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "us_impl.h"

static const char *const regs64[] = { "%rdi", "%rsi", "%rdx", "%rcx", "%r8", "%r9" };
static const char *const regs32[] = { "%edi", "%esi", "%edx", "%ecx", "%r8d", "%r9d" };

static int type_size(usdt_argtype_t t)
{
	switch (t) {
	case USDT_ARG_INT8: return -1;
	case USDT_ARG_UINT8: return 1;
	case USDT_ARG_INT16: return -2;
	case USDT_ARG_UINT16: return 2;
	case USDT_ARG_INT32: return -4;
	case USDT_ARG_UINT32: return 4;
	case USDT_ARG_INT64: return -8;
	default: return 8; /* UINT64, POINTER, STRING, DOUBLE */
	}
}

void us_arg_spec(usdt_argtype_t t, int i, char *buf, size_t len)
{
	int sz = type_size(t);

	if (i < 6)
		snprintf(buf, len, "%d@%s", sz, (sz == 8 || sz == -8) ? regs64[i] : regs32[i]);
	else /* the return address is at 0(%rsp) */
		snprintf(buf, len, "%d@%d(%%rsp)", sz, 8 * (i - 5));
}

typedef struct buf {
	char *p;
	size_t len, cap;
	bool oom;
} buf_t;

static size_t put(buf_t *b, const void *data, size_t n)
{
	size_t off = b->len;

	if (b->len + n > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 1024) + n;
		char *np = realloc(b->p, cap);

		if (np == NULL) {
			b->oom = true;
			return 0;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
	return off;
}

static size_t put_str(buf_t *b, const char *s)
{
	return put(b, s, strlen(s) + 1);
}

static void align(buf_t *b, size_t a)
{
	static const char zero[8];

	while (b->len % a)
		put(b, zero, 1);
}

/* One stapsdt note per probe: header, "stapsdt", pc, base, sema, strings. */
static void notes(const usdt_provider_t *prov, const us_image_t *im, buf_t *b)
{
	size_t i = 0;

	for (const usdt_probe_t *pb = prov->pv_probes; pb != NULL; pb = pb->pb_next, i++) {
		char spec[USDT_MAXARGS * 24] = "", one[24];
		uint64_t addrs[3] = { im->im_text + i * US_FNSIZE, US_BASE_VADDR,
				      im->im_sema + i * 2 };
		uint32_t hdr[3] = { 8, 0, 3 };

		for (int a = 0; a < pb->pb_argc; a++) {
			us_arg_spec(pb->pb_types[a], a, one, sizeof(one));
			if (a)
				strcat(spec, " ");
			strcat(spec, one);
		}
		hdr[1] = (uint32_t)(24 + strlen(prov->pv_name) + 1 + strlen(pb->pb_name) + 1 +
				    strlen(spec) + 1);
		put(b, hdr, sizeof(hdr));
		put(b, "stapsdt", 8);
		put(b, addrs, sizeof(addrs));
		put_str(b, prov->pv_name);
		put_str(b, pb->pb_name);
		put_str(b, spec);
		align(b, 4);
	}
}

/*
 * The build ID perf and debuggers key files by: 20 bytes hashed (FNV-1a,
 * five seeds) from what makes the image what it is.
 */
static void build_id(uint8_t out[36], const buf_t *note, const uint8_t *text, size_t textsz,
		     const buf_t *str)
{
	static const uint32_t hdr[3] = { 4, 20, 3 }; /* "GNU", 20 bytes, NT_GNU_BUILD_ID */
	const struct {
		const void *p;
		size_t n;
	} parts[] = { { note->p, note->len }, { text, textsz }, { str->p, str->len } };

	memcpy(out, hdr, sizeof(hdr));
	memcpy(out + 12, "GNU", 4);
	for (uint32_t k = 0; k < 5; k++) {
		uint32_t h = 2166136261u ^ (k * 0x9e3779b9u);

		for (size_t j = 0; j < sizeof(parts) / sizeof(parts[0]); j++)
			for (size_t i = 0; i < parts[j].n; i++)
				h = (h ^ ((const uint8_t *)parts[j].p)[i]) * 16777619u;
		memcpy(out + 16 + 4 * k, &h, 4);
	}
}

static Elf_Scn *section(Elf *elf, buf_t *shstr, const char *name, GElf_Word type, GElf_Xword flags,
			GElf_Addr addr, GElf_Off off, void *data, size_t size, size_t align_,
			GElf_Xword entsize)
{
	Elf_Scn *scn = elf_newscn(elf);
	Elf_Data *d;
	GElf_Shdr sh;

	if (scn == NULL || gelf_getshdr(scn, &sh) == NULL)
		return NULL;
	sh.sh_name = (GElf_Word)put_str(shstr, name);
	sh.sh_type = type;
	sh.sh_flags = flags;
	sh.sh_addr = addr;
	sh.sh_offset = off;
	sh.sh_size = size;
	sh.sh_addralign = align_;
	sh.sh_entsize = entsize;
	if (!gelf_update_shdr(scn, &sh) || (d = elf_newdata(scn)) == NULL)
		return NULL;
	d->d_buf = data;
	d->d_size = size;
	d->d_align = align_;
	d->d_off = 0;
	d->d_type = type == SHT_SYMTAB ? ELF_T_SYM : ELF_T_BYTE;
	return scn;
}

static size_t roundup(size_t n, size_t a)
{
	return (n + a - 1) / a * a;
}

/* libelf's message and the line that failed, for a report someone can act on */
#define ELFERR()                    \
	do {                        \
		errline = __LINE__; \
		goto elferr;        \
	} while (0)

int us_elf_write(const usdt_provider_t *prov, int fd, us_image_t *im, char *err, size_t errlen)
{
	size_t n = (size_t)prov->pv_nprobes, textsz, semasz, off, i;
	buf_t note = { 0 }, str = { 0 }, shstr = { 0 };
	uint8_t *text = NULL, *sema = NULL, base = 0, bid[36];
	Elf64_Sym *syms = NULL;
	Elf_Scn *symscn, *strscn, *shstrscn;
	GElf_Phdr ph;
	GElf_Ehdr eh;
	Elf *elf = NULL;
	int rc = -1, errline = 0;

	textsz = n * US_FNSIZE;
	semasz = n * 2;
	im->im_text = US_TEXT_VADDR;
	im->im_nfn = n;
	im->im_sema = US_TEXT_VADDR + roundup(textsz ? textsz : 1, US_PAGE);
	im->im_len = im->im_sema + roundup(semasz ? semasz : 1, US_PAGE);

	text = malloc(textsz ? textsz : 1);
	sema = calloc(1, semasz ? semasz : 1);
	syms = calloc(2 * n + 1, sizeof(*syms));
	if (text == NULL || sema == NULL || syms == NULL) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	memset(text, 0xcc, textsz); /* int3 between functions */
	put_str(&shstr, "");
	put_str(&str, "");
	i = 0;
	for (const usdt_probe_t *pb = prov->pv_probes; pb != NULL; pb = pb->pb_next, i++) {
		static const uint8_t nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
		uint8_t *f = text + i * US_FNSIZE;
		char name[3 * US_NAMELEN + 16];

		if (prov->pv_flags & USDT_SITE_NOP1) {
			f[0] = 0x90;
			f[1] = 0xc3;
		} else {
			memcpy(f, nop5, sizeof(nop5));
			f[5] = 0xc3;
		}
		/* symbols make perf and gdb name the functions and semaphores */
		snprintf(name, sizeof(name), "%s_%s_%s", prov->pv_name, pb->pb_func, pb->pb_name);
		syms[1 + 2 * i].st_name = (Elf64_Word)put_str(&str, name);
		syms[1 + 2 * i].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
		syms[1 + 2 * i].st_shndx = 2;
		syms[1 + 2 * i].st_value = im->im_text + i * US_FNSIZE;
		syms[1 + 2 * i].st_size = US_FNSIZE;
		snprintf(name, sizeof(name), "%s_%s_semaphore", prov->pv_name, pb->pb_name);
		syms[2 + 2 * i].st_name = (Elf64_Word)put_str(&str, name);
		syms[2 + 2 * i].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT);
		syms[2 + 2 * i].st_shndx = 3;
		syms[2 + 2 * i].st_value = im->im_sema + i * 2;
		syms[2 + 2 * i].st_size = 2;
	}
	notes(prov, im, &note);
	if (note.oom || str.oom || shstr.oom) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}

	if ((elf = elf_begin(fd, ELF_C_WRITE, NULL)) == NULL)
		ELFERR();
	elf_flagelf(elf, ELF_C_SET, ELF_F_LAYOUT);
	build_id(bid, &note, text, textsz, &str);
	if (gelf_newehdr(elf, ELFCLASS64) == 0 || gelf_newphdr(elf, 4) == 0 ||
	    gelf_getehdr(elf, &eh) == NULL)
		ELFERR();
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_OSABI] = ELFOSABI_SYSV;
	eh.e_type = ET_DYN;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = sizeof(Elf64_Ehdr);

	/* sections 1..3 are allocated; their indices are used by the symbols above */
	if (section(elf, &shstr, ".stapsdt.base", SHT_PROGBITS, SHF_ALLOC, US_BASE_VADDR,
		    US_BASE_VADDR, &base, 1, 1, 0) == NULL ||
	    section(elf, &shstr, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, im->im_text,
		    im->im_text, text, textsz, 16, 0) == NULL ||
	    section(elf, &shstr, ".probes", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, im->im_sema,
		    im->im_sema, sema, semasz, 2, 0) == NULL)
		ELFERR();
	if (section(elf, &shstr, ".note.gnu.build-id", SHT_NOTE, SHF_ALLOC, US_BUILDID_VADDR,
		    US_BUILDID_VADDR, bid, sizeof(bid), 4, 0) == NULL)
		ELFERR();
	off = im->im_len;
	if (section(elf, &shstr, ".note.stapsdt", SHT_NOTE, 0, 0, off, note.p, note.len, 4, 0) ==
	    NULL)
		ELFERR();
	off = roundup(off + note.len, 8);
	if ((symscn = section(elf, &shstr, ".symtab", SHT_SYMTAB, 0, 0, off, syms,
			      (2 * n + 1) * sizeof(*syms), 8, sizeof(Elf64_Sym))) == NULL)
		ELFERR();
	off += (2 * n + 1) * sizeof(*syms);
	if ((strscn = section(elf, &shstr, ".strtab", SHT_STRTAB, 0, 0, off, str.p, str.len, 1,
			      0)) == NULL)
		ELFERR();
	off += str.len;
	/* .shstrtab's data is set once its own name is in it */
	if ((shstrscn = section(elf, &shstr, ".shstrtab", SHT_STRTAB, 0, 0, off, NULL, 0, 1, 0)) ==
	    NULL)
		ELFERR();
	{
		Elf_Data *d = elf_getdata(shstrscn, NULL);
		GElf_Shdr sh;

		if (shstr.oom || d == NULL || gelf_getshdr(shstrscn, &sh) == NULL)
			ELFERR();
		d->d_buf = shstr.p;
		d->d_size = shstr.len;
		sh.sh_size = shstr.len;
		if (!gelf_update_shdr(shstrscn, &sh))
			ELFERR();
		off += shstr.len;
	}
	{
		GElf_Shdr sh;

		if (gelf_getshdr(symscn, &sh) == NULL)
			ELFERR();
		sh.sh_link = (GElf_Word)elf_ndxscn(strscn);
		sh.sh_info = 1; /* first global symbol */
		if (!gelf_update_shdr(symscn, &sh))
			ELFERR();
	}
	eh.e_shoff = roundup(off, 8);
	eh.e_shstrndx = (Elf64_Half)elf_ndxscn(shstrscn);
	if (!gelf_update_ehdr(elf, &eh))
		ELFERR();

	/* three loads: headers, build ID and base (R), text (RX), semaphores (RW); the note */
	memset(&ph, 0, sizeof(ph));
	ph.p_type = PT_LOAD;
	ph.p_flags = PF_R;
	ph.p_filesz = ph.p_memsz = US_BASE_VADDR + 1;
	ph.p_align = US_PAGE;
	if (!gelf_update_phdr(elf, 0, &ph))
		ELFERR();
	ph.p_flags = PF_R | PF_X;
	ph.p_offset = ph.p_vaddr = ph.p_paddr = im->im_text;
	ph.p_filesz = ph.p_memsz = textsz;
	if (!gelf_update_phdr(elf, 1, &ph))
		ELFERR();
	ph.p_flags = PF_R | PF_W;
	ph.p_offset = ph.p_vaddr = ph.p_paddr = im->im_sema;
	ph.p_filesz = ph.p_memsz = semasz;
	if (!gelf_update_phdr(elf, 2, &ph))
		ELFERR();
	ph.p_type = PT_NOTE;
	ph.p_flags = PF_R;
	ph.p_offset = ph.p_vaddr = ph.p_paddr = US_BUILDID_VADDR;
	ph.p_filesz = ph.p_memsz = sizeof(bid);
	ph.p_align = 4;
	if (!gelf_update_phdr(elf, 3, &ph))
		ELFERR();
	if (elf_update(elf, ELF_C_WRITE) < 0)
		ELFERR();
	rc = 0;
	goto out;
elferr:
	snprintf(err, errlen, "libelf: %s (us_elf.c:%d)", elf_errmsg(-1), errline);
out:
	if (elf != NULL)
		elf_end(elf);
	free(text);
	free(sema);
	free(syms);
	free(note.p);
	free(str.p);
	free(shstr.p);
	return rc;
}
