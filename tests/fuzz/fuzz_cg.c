/*
 * libFuzzer target: the D back-end.  Compiling generates each clause's
 * code; programs that compile are then matched to this machine's probes
 * (-Z) and every probe's program is linked as dtrace_go links it (the
 * prologue, the clauses, their argument code, the ERROR clauses in fault
 * blocks, relocations, jumps), without loading anything into the kernel.
 * The code generator and the linker must refuse what they cannot build
 * with an error, never crash, hang, leak or read out of bounds.
 */
#include <stdint.h>
#include <stdio.h>

#include "dt_impl.h"
#include "dt_run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	dtrace_hdl_t *dtp = dtrace_open(DTRACE_VERSION, 0, NULL);
	dtrace_prog_t *pgp;
	FILE *in;

	if (dtp == NULL || size == 0 || dtrace_setopt(dtp, "zdefs", NULL) != 0) {
		dtrace_close(dtp);
		return 0;
	}
	in = fmemopen((void *)data, size, "r");
	pgp = in != NULL ? dtrace_program_fcompile(dtp, in, "fuzz.d", 0, 0, NULL) : NULL;
	if (in != NULL)
		fclose(in);
	if (pgp != NULL && dtrace_program_exec(dtp, pgp, NULL) == 0)
		(void)dt_load_link_all(dtp);
	dtrace_close(dtp);
	return 0;
}
