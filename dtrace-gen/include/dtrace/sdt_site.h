/*
 * dtrace/sdt_site.h -- probe sites for statically defined probes.
 *
 * Headers made by `dtrace -h` carry a copy of this file, so programs need
 * neither it nor <sys/sdt.h>.  A probe site is:
 *
 *   - a few no-op bytes in the instruction stream, where a tracer puts its
 *     breakpoint (see _DTRACE_SITE_NOP below for the exact form);
 *   - a note in the standard stapsdt format (section .note.stapsdt, type 3,
 *     owner "stapsdt") giving the site address, the address of
 *     _.stapsdt.base (to undo prelinking), the semaphore address, the
 *     provider and probe names and the argument specification
 *     ("-4@%eax 8@%rbx": size, negative when signed, '@', operand), which
 *     bpftrace, perf, gdb, BCC, libbpf and our dtrace all read;
 *   - a 2-byte semaphore in .probes that the kernel raises through the
 *     uprobe ref_ctr mechanism while a tracer is attached, so that
 *     "is this probe enabled?" is one load.
 *
 * The site form on x86-64.  A one-byte `nop` is what <sys/sdt.h> emits; the
 * kernel single-steps or emulates it.  Linux 6.18 can turn a uprobe on a
 * 5-byte nop into a call into a trampoline, but that call pushes a return
 * address below the stack pointer, into the red zone a leaf function may be
 * using: a bare nop5 in user code can corrupt its locals.  Newer kernels
 * optimize a `nop` followed by a 10-byte nop instead, with room to step over
 * the red zone first.  We emit that form: `nop` (where the note points)
 * then a 10-byte nop.  Kernels without that optimization probe the
 * one-byte nop exactly as they probe <sys/sdt.h> sites, and nothing ever
 * patches a nop5 in the middle of user code.  Define
 * DTRACE_SDT_SHORT_SITE to get the classic one-byte site instead.
 */
#ifndef DTRACE_SDT_SITE_H
#define DTRACE_SDT_SITE_H

#if !defined(__x86_64__) || !defined(__LP64__)
#error "dtrace probe sites: only x86_64 with 64-bit pointers is supported so far"
#endif

#ifdef DTRACE_SDT_SHORT_SITE
#define _DTRACE_SITE_NOP "nop"
#else
/* nop, then the 10-byte nop "cs nopw 0x0(%rax,%rax,1)" */
#define _DTRACE_SITE_NOP "nop\n\t.byte 0x66,0x2e,0x0f,0x1f,0x84,0x00,0x00,0x00,0x00,0x00"
#endif

/*
 * _.stapsdt.base: one byte in a COMDAT section, once per linked object;
 * consumers compare its link-time address in the note with its run-time
 * address to find how far the object was moved by prelink.
 */
#define _DTRACE_SITE_BASE                                                    \
	".ifndef _.stapsdt.base\n"                                           \
	".pushsection .stapsdt.base,\"aG\",@progbits,.stapsdt.base,comdat\n" \
	".weak _.stapsdt.base\n"                                             \
	".hidden _.stapsdt.base\n"                                           \
	"_.stapsdt.base:\n"                                                  \
	".space 1\n"                                                         \
	".size _.stapsdt.base, 1\n"                                          \
	".popsection\n"                                                      \
	".endif\n"

/*
 * The assembler text of one probe site, for __asm__ __volatile__ with the
 * argument operands as inputs.  prov, name, sema (the semaphore symbol) and
 * spec (the argument specification, with %[operand] references) are string
 * literals.  The note section is flagged "?" so that a site in an inline
 * function or template instance (a COMDAT group) is discarded together
 * with the code it describes.
 */
#define _DTRACE_SITE(prov, name, sema, spec)          \
	"990:\t" _DTRACE_SITE_NOP "\n"                \
	".pushsection .note.stapsdt,\"?\",\"note\"\n" \
	".balign 4\n"                                 \
	".4byte 992f-991f, 994f-993f, 3\n"            \
	"991:\t.asciz \"stapsdt\"\n"                  \
	"992:\t.balign 4\n"                           \
	"993:\t.8byte 990b\n"                         \
	".8byte _.stapsdt.base\n"                     \
	".8byte " sema "\n"                           \
	".asciz \"" prov "\"\n"                       \
	".asciz \"" name "\"\n"                       \
	".asciz \"" spec "\"\n"                       \
	"994:\t.balign 4\n"                           \
	".popsection\n" _DTRACE_SITE_BASE

/*
 * A semaphore: a hidden 2-byte object in section .probes.  Every
 * translation unit that includes a generated header defines it weakly, so
 * the link keeps one whatever the number of units (LTO included, where all
 * units become one assembly) and whether or not the object `dtrace -G`
 * writes, which defines it for good, is linked too.  Hidden: each
 * executable and shared library has its own, as the kernel counts per
 * mapped file.
 */
#define _DTRACE_SEMAPHORE(sym)                                                               \
	__attribute__((__weak__, __visibility__("hidden"), __section__(".probes"), __used__, \
		       __aligned__(2))) volatile unsigned short sym

#ifdef __cplusplus
#define _DTRACE_BOOL bool
#else
#define _DTRACE_BOOL _Bool
#endif

/* Is-enabled: one volatile load, so a loop sees the kernel's change. */
#ifdef __cplusplus
#define _DTRACE_IS_ENABLED(sym) static_cast<int>(__builtin_expect((sym), 0))
#else
#define _DTRACE_IS_ENABLED(sym) ((int)__builtin_expect((sym), 0))
#endif

/* Plain char is signed or not as the compiler says: its size@ prefix. */
#ifdef __CHAR_UNSIGNED__
#define _DTRACE_CHAR "1"
#else
#define _DTRACE_CHAR "-1"
#endif

#endif /* DTRACE_SDT_SITE_H */
