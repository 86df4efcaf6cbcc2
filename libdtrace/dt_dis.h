/*
 * dt_dis.h -- BPF instructions as text, for dtrace -S: the syntax of the
 * kernel's verifier log and bpftool's "xlated" dump (kernel/bpf/disasm.c),
 * which BPF people read every day, with each instruction's offset:
 *
 *      2: r1 = map_fd 5 ll            ; dt_state
 *      4: r2 = r10
 *      6: call map_lookup_elem#1
 *      7: if r0 == 0x0 goto pc+12     ; -> 20
 *      9: lock *(u64 *)(r0 +16) += r1
 *     10: call pc+30                  ; -> 41
 *
 * Where this differs from the kernel: no "(opcode)" column; helpers are
 * named without "bpf_" (as in D and in dt_dis_helper()); a 64-bit load
 * ends in "ll" (as in LLVM's BPF assembly) and names its kind of pseudo
 * source (map_fd, map_value, func...); jumps and calls within the program
 * say their target in a comment.
 *
 * Any input is safe: an instruction that is not a valid encoding (an
 * unknown opcode, a register past r10, a reserved field that is not zero,
 * half of a 64-bit load) prints as ".insn 0xCODE dst=D src=S off=O imm=I"
 * with its raw fields, so that what the verifier would refuse shows.
 *
 * Nothing here keeps state: every function is thread-safe.
 */
#ifndef DT_DIS_H
#define DT_DIS_H

#include <stddef.h>
#include <stdio.h>
#include <linux/bpf.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A name for what instruction i refers to symbolically (a map, a record
 * offset, a relocated constant...), or NULL: the disassembler prints it as
 * a comment after the instruction; a name that starts with '=' is printed
 * instead of the instruction (a pseudo-instruction of the caller's, one
 * slot).  It is called once for each instruction
 * printed (for a 64-bit load, with the index of its first half), and the
 * string is only read before the next call.
 */
typedef const char *dt_dis_note_f(size_t i, void *arg);

/*
 * Print n instructions to fp, one a line, each prefixed by indent (NULL:
 * none).  note may be NULL.  A jump's or call's comment gives its target
 * ("-> 20", "-> 25 (outside)" past either end), then the note, if any,
 * after "; ".  Write errors are the stream's: see ferror(fp).
 */
void dt_dis(FILE *fp, const char *indent, const struct bpf_insn *insns, size_t n,
	    dt_dis_note_f *note, void *arg);

/*
 * The name of a BPF helper ("map_lookup_elem" for 1), or NULL if the id is
 * not one in the <linux/bpf.h> libdtrace was built with (or is 0,
 * BPF_FUNC_unspec).  The string is static.
 */
const char *dt_dis_helper(int id);

#ifdef __cplusplus
}
#endif

#endif /* DT_DIS_H */
