/*
 * dt_cg_subr.c -- code generation of the built-in variables and the
 * subroutines (those emitted here, those whose bodies are C compiled to BPF
 * at build time, libdtrace/bpf/), and the shared subprograms (dt_cg.h).
 */

#include "dt_cg.h"
/* ---------------------------------------------------------------- built-ins */

/* r0 = a temporary holding the string s (len bytes, cut at strsize - 1). */
void dt_cg_string_literal(dt_cg_t *cg, const char *s, size_t len)
{
	dt_frag_string(cg->cg_fr, SA_OFF(dt_cg_tmp_string(cg)), s, len, cg->cg_strsize);
	if (cg->cg_fr->fr_oom)
		dt_cnomem(cg->cg_pcb);
}

/*
 * r0 = a temporary (scratch address off) holding the user string at the
 * address in r0, R2 bytes at most (set_len: strsize); a bad address faults.
 */

void dt_cg_string_from(dt_cg_t *cg, uint32_t off, bool set_len, bool any)
{
	int ok = label(cg);

	emit(cg, KS_MOV64_REG(R9, R0));
	emit(cg, KS_MOV64_REG(R3, R0));
	emit(cg, KS_MOV64_REG(R1, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
	if (set_len)
		emit(cg, KS_MOV64_IMM(R2, (int32_t)cg->cg_strsize));
	if (any)
		dt_cg_read_any(cg, BPF_FUNC_probe_read_user_str);
	else
		emit(cg, KS_CALL(BPF_FUNC_probe_read_user_str));
	emit_to(cg, KS_JMP_IMM(BPF_JSGT, R0, 0, 0), ok);
	dt_cg_fault(cg, DT_FLT_BADADDR, R9);
	place(cg, ok);
	emit(cg, KS_MOV64_REG(R0, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(off)), off);
}

void dt_cg_user_string(dt_cg_t *cg, uint32_t off, bool set_len)
{
	dt_cg_string_from(cg, off, set_len, false);
}

/*
 * r0 = argument i of the probe: how to read it is the probe's provider's
 * (a register, the stack, the error record), known when linking.
 */
void dt_cg_probe_arg(dt_cg_t *cg, int i, const dt_node_t *n)
{
	(void)n;
	emit_pseudo(cg, &(dt_pseudo_t){ .px_kind = DT_PX_ARG,
					.px_arg = i,
					.px_action = cg->cg_action,
					.px_lfault = cg->cg_lfault });
	cg->cg_faults = true; /* a memory operand may fault */
}

/* reg += a kernel structure offset, known when the program loads. */
static void add_toff(dt_cg_t *cg, int reg, dt_toff_t which)
{
	emit_rel(cg, KS_ALU64_IMM(BPF_ADD, reg, 0), DT_RL_TOFF, which);
}

/*
 * r0 = a field of the current task_struct, found through pointers: each
 * offset of path but the last is added to what was read so far (the task
 * first) and gives a pointer; the last gives the sz bytes read (1, 2, 4 or
 * 8, zero-extended).  What cannot be read (a NULL mm) reads as 0.
 */
static void task_chain(dt_cg_t *cg, const dt_toff_t *path, int len, size_t sz)
{
	emit(cg, KS_CALL(BPF_FUNC_get_current_task));
	emit(cg, KS_MOV64_REG(R3, R0));
	for (int i = 0; i < len; i++) {
		size_t rsz = i == len - 1 ? sz : 8;

		add_toff(cg, R3, path[i]);
		emit(cg, KS_ST_MEM(BPF_DW, FP, SLOT_TMP, 0));
		emit(cg, KS_MOV64_REG(R1, FP));
		emit(cg, KS_ALU64_IMM(BPF_ADD, R1, SLOT_TMP));
		emit(cg, KS_MOV64_IMM(R2, (int32_t)rsz));
		emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel));
		emit(cg, KS_LDX_MEM(bpf_size(rsz), i == len - 1 ? R0 : R3, FP, SLOT_TMP));
	}
}

/*
 * r0 = a string in a temporary: the 16-byte command name of the thread
 * (leader false: get_current_comm) or of its process's main thread.
 */
static void comm_string(dt_cg_t *cg, bool leader)
{
	uint32_t off = dt_cg_tmp_string(cg), len = cg->cg_strsize - 1;

	len = len < 16 ? len : 16;
	if (leader) {
		static const dt_toff_t path[] = { DT_TOFF_GROUP_LEADER };

		task_chain(cg, path, 1, 8);
		emit(cg, KS_MOV64_REG(R3, R0));
		add_toff(cg, R3, DT_TOFF_COMM);
		emit(cg, KS_MOV64_REG(R1, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
		emit(cg, KS_MOV64_IMM(R2, (int32_t)len));
		emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel));
	} else {
		emit(cg, KS_MOV64_REG(R1, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
		emit(cg, KS_MOV64_IMM(R2, (int32_t)len + 1)); /* the helper ends it with a NUL */
		emit(cg, KS_CALL(BPF_FUNC_get_current_comm));
	}
	emit_sa(cg, KS_ST_MEM(BPF_B, R8, OFF(off + len), 0), off);
	emit(cg, KS_MOV64_REG(R0, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(off)), off);
}

/*
 * r0 = the process's arguments as ps shows them (psinfo_t's pr_psargs):
 * the first 79 bytes of its argv strings, from mm->arg_start in its own
 * memory, NULs between them made spaces.  Empty where there are none (a
 * kernel thread) or they cannot be read.
 */
static void psargs_string(dt_cg_t *cg, const dt_node_t *n)
{
	static const dt_toff_t path[] = { DT_TOFF_MM };
	uint32_t off = dt_cg_tmp_string(cg), len = cg->cg_strsize - 1;
	int ok = label(cg), read = label(cg), loop = label(cg), next = label(cg), done = label(cg);

	len = len < 79 ? len : 79;
	task_chain(cg, path, 1, 8);
	emit(cg, KS_MOV64_REG(R9, R0));
	for (int i = 0; i < 2; i++) { /* arg_start, waiting on the stack, then arg_end in r0 */
		emit(cg, KS_MOV64_REG(R3, R9));
		add_toff(cg, R3, i == 0 ? DT_TOFF_ARG_START : DT_TOFF_ARG_END);
		emit(cg, KS_ST_MEM(BPF_DW, FP, SLOT_TMP, 0));
		emit(cg, KS_MOV64_REG(R1, FP));
		emit(cg, KS_ALU64_IMM(BPF_ADD, R1, SLOT_TMP));
		emit(cg, KS_MOV64_IMM(R2, 8));
		emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel));
		emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, SLOT_TMP));
		if (i == 0)
			push(cg, n);
	}
	pop(cg, R3);
	emit(cg, KS_MOV64_REG(R2, R0));
	emit(cg, KS_ALU64_REG(BPF_SUB, R2, R3)); /* the bytes to read: len at most */
	emit_to(cg, KS_JMP_IMM(BPF_JLE, R2, (int32_t)len, 0), ok);
	emit(cg, KS_MOV64_IMM(R2, (int32_t)len));
	place(cg, ok);
	emit(cg, KS_MOV64_REG(R9, R2));
	emit(cg, KS_MOV64_REG(R1, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
	emit(cg, KS_CALL(BPF_FUNC_probe_read_user));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), read);
	emit(cg, KS_MOV64_IMM(R9, 0));
	place(cg, read);
	emit(cg, KS_MOV64_REG(R1, R8));
	emit(cg, KS_ALU64_REG(BPF_ADD, R1, R9));
	emit_sa(cg, KS_ST_MEM(BPF_B, R1, OFF(off), 0), off);
	/* the NULs before the last byte (the last argument's own NUL) become spaces */
	emit(cg, KS_MOV64_REG(R2, R9));
	emit(cg, KS_ALU64_IMM(BPF_SUB, R2, 1));
	emit(cg, KS_MOV64_IMM(R3, 0));
	place(cg, loop);
	emit_to(cg, KS_JMP_IMM(BPF_JGE, R3, (int32_t)len, 0), done);
	emit_to(cg, KS_JMP_REG(BPF_JSGE, R3, R2, 0), done);
	emit(cg, KS_MOV64_REG(R4, R8));
	emit(cg, KS_ALU64_REG(BPF_ADD, R4, R3));
	emit_sa(cg, KS_LDX_MEM(BPF_B, R5, R4, OFF(off)), off);
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R5, 0, 0), next);
	emit_sa(cg, KS_ST_MEM(BPF_B, R4, OFF(off), ' '), off);
	place(cg, next);
	emit(cg, KS_ALU64_IMM(BPF_ADD, R3, 1));
	jump(cg, loop);
	place(cg, done);
	emit(cg, KS_MOV64_REG(R0, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(off)), off);
}

/*
 * curpsinfo->m and curlwpsinfo->m: the members of psinfo_t and lwpsinfo_t
 * (dt_type.c), read from the current task as DTrace's translators read
 * them from the proc and kthread structures.
 */
void dt_cg_cur_info_member(dt_cg_t *cg, dt_node_t *n)
{
	static const struct {
		const char *name;
		dt_toff_t path[3];
		int len;
	} chains[] = {
		{ "pr_ppid", { DT_TOFF_REAL_PARENT, DT_TOFF_TGID }, 2 },
		{ "pr_euid", { DT_TOFF_CRED, DT_TOFF_EUID }, 2 },
		{ "pr_egid", { DT_TOFF_CRED, DT_TOFF_EGID }, 2 },
		{ "pr_nlwp", { DT_TOFF_SIGNAL, DT_TOFF_NR_THREADS }, 2 },
		{ "pr_pgid", { DT_TOFF_SIGNAL, DT_TOFF_PGID_PID, DT_TOFF_PID_NR }, 3 },
		{ "pr_sid", { DT_TOFF_SIGNAL, DT_TOFF_SID_PID, DT_TOFF_PID_NR }, 3 },
	};
	const char *m = n->dn_name;
	char what[64];

	dt_bid_t id = n->dn_left->dn_ident->di_func->db_id;

	snprintf(what, sizeof(what), "%s->%s", n->dn_left->dn_name, m);
	if (id != DT_B_CURPSINFO && id != DT_B_CURLWPSINFO)
		cg_error(cg, n, "%s cannot be read here", what);
	if (id == DT_B_CURLWPSINFO) {
		if (strcmp(m, "pr_lwpid") == 0) {
			emit(cg, KS_CALL(BPF_FUNC_get_current_pid_tgid));
			extend(cg, R0, 4, false);
		} else if (strcmp(m, "pr_onpro") == 0) {
			emit(cg, KS_CALL(BPF_FUNC_get_smp_processor_id));
		} else if (strcmp(m, "pr_name") == 0) {
			comm_string(cg, false);
		} else {
			cg_error(cg, n, "%s cannot be read here", what);
		}
		return;
	}
	if (strcmp(m, "pr_pid") == 0) {
		emit(cg, KS_CALL(BPF_FUNC_get_current_pid_tgid));
		emit(cg, KS_ALU64_IMM(BPF_RSH, R0, 32));
	} else if (strcmp(m, "pr_uid") == 0 || strcmp(m, "pr_gid") == 0) {
		emit(cg, KS_CALL(BPF_FUNC_get_current_uid_gid));
		if (m[3] == 'g')
			emit(cg, KS_ALU64_IMM(BPF_RSH, R0, 32));
		else
			extend(cg, R0, 4, false);
	} else if (strcmp(m, "pr_fname") == 0) {
		comm_string(cg, true);
	} else if (strcmp(m, "pr_psargs") == 0) {
		psargs_string(cg, n);
	} else {
		for (size_t i = 0; i < sizeof(chains) / sizeof(chains[0]); i++)
			if (strcmp(m, chains[i].name) == 0) {
				task_chain(cg, chains[i].path, chains[i].len, 4);
				return;
			}
		cg_error(cg, n, "%s cannot be read here", what);
	}
}

/* r0 = the 8 bytes at r3 + the offset t, read from the kernel (0 if they cannot be); r1-r5 */
static void read_toff(dt_cg_t *cg, dt_toff_t t)
{
	add_toff(cg, R3, t);
	emit(cg, KS_ST_MEM(BPF_DW, FP, SLOT_TMP, 0));
	emit(cg, KS_MOV64_REG(R1, FP));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R1, SLOT_TMP));
	emit(cg, KS_MOV64_IMM(R2, 8));
	emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel));
	emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, SLOT_TMP));
}

/* zonename: Linux has no zones, so every process is in illumos's global zone. */
void dt_cg_v_zonename(dt_cg_t *cg, dt_node_t *n, int arg)
{
	(void)n, (void)arg;
	dt_cg_string_literal(cg, "global", 6);
}

#define CWD_STEPS 40 /* dentries and mount crossings walked: deeper paths lose their top */

/*
 * cwd (arg 0): the process's current directory, as illumos's DIF_VAR_CWD
 * (the path of p_user.u_cdir), and root (arg 1): its root directory, as
 * DIF_VAR_ROOT (u_rdir; "/" unless chrooted, here the path of the root in
 * the mount tree, so a chrooted process's root names the directory it was
 * chrooted to): task->fs->pwd's (->root's) dentry names, walked up to the
 * root and crossing mounts (a mount's root is its mountpoint in its
 * parent mount), then written root first.  The walk is unrolled,
 * CWD_STEPS steps; its state (the dentry, the vfsmount, the names found
 * and their count) lives in scratch words, which keeps the verifier's
 * states alike from one step to the next.
 */
void dt_cg_v_cwd(dt_cg_t *cg, dt_node_t *n, int arg)
{
	uint32_t out = dt_cg_tmp_string(cg), w = dt_cg_tmp_string(cg), need = 32 + 8 * CWD_STEPS;
	uint32_t dent = w, mnt = w + 8, cnt = w + 16, tmp = w + 24, names = w + 32;
	int done = label(cg), end = label(cg), slash = label(cg);

	(void)n;
	for (uint32_t got = cg->cg_strsize; got < need; got += cg->cg_strsize)
		(void)dt_cg_tmp_string(cg);
	emit_sa(cg, KS_ST_MEM(BPF_B, R8, OFF(out), 0), out);
	emit_sa(cg, KS_ST_MEM(BPF_DW, R8, OFF(cnt), 0), cnt);
	emit(cg, KS_CALL(BPF_FUNC_get_current_task));
	emit(cg, KS_MOV64_REG(R3, R0));
	read_toff(cg, DT_TOFF_FS);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), done);
	emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(tmp)), tmp);
	emit(cg, KS_MOV64_REG(R3, R0));
	read_toff(cg, arg ? DT_TOFF_ROOT_DENTRY : DT_TOFF_PWD_DENTRY);
	emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(dent)), dent);
	emit_sa(cg, KS_LDX_MEM(BPF_DW, R3, R8, OFF(tmp)), tmp);
	read_toff(cg, arg ? DT_TOFF_ROOT_MNT : DT_TOFF_PWD_MNT);
	emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(mnt)), mnt);
	for (int i = 0; i < CWD_STEPS; i++) {
		int notroot = label(cg), next = label(cg);

		emit_sa(cg, KS_LDX_MEM(BPF_DW, R3, R8, OFF(mnt)), mnt);
		read_toff(cg, DT_TOFF_MNT_ROOT);
		emit_sa(cg, KS_LDX_MEM(BPF_DW, R1, R8, OFF(dent)), dent);
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R1, 0, 0), done);
		emit_to(cg, KS_JMP_REG(BPF_JNE, R0, R1, 0), notroot);
		/* the root of its mount: on to the mountpoint, in the parent mount */
		emit(cg, KS_MOV64_IMM(R3, 0));
		add_toff(cg, R3, DT_TOFF_MOUNT_MNT);
		emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R3, OFF(tmp)), tmp);
		emit_sa(cg, KS_LDX_MEM(BPF_DW, R1, R8, OFF(mnt)), mnt);
		emit(cg, KS_ALU64_REG(BPF_SUB, R1, R3)); /* the struct mount */
		emit(cg, KS_MOV64_REG(R3, R1));
		read_toff(cg, DT_TOFF_MNT_PARENT);
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), done);
		emit_sa(cg, KS_LDX_MEM(BPF_DW, R1, R8, OFF(tmp)), tmp);
		emit(cg, KS_ALU64_REG(BPF_ADD, R0, R1)); /* the parent's vfsmount */
		emit_sa(cg, KS_LDX_MEM(BPF_DW, R1, R8, OFF(mnt)), mnt);
		emit_to(cg, KS_JMP_REG(BPF_JEQ, R0, R1, 0), done); /* its own parent: the root */
		emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(tmp)), tmp);
		emit_sa(cg, KS_LDX_MEM(BPF_DW, R3, R8, OFF(mnt)), mnt);
		emit(cg, KS_MOV64_IMM(R1, 0));
		add_toff(cg, R1, DT_TOFF_MOUNT_MNT);
		emit(cg, KS_ALU64_REG(BPF_SUB, R3, R1));
		read_toff(cg, DT_TOFF_MNT_MOUNTPT);
		emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(dent)), dent);
		emit_sa(cg, KS_LDX_MEM(BPF_DW, R0, R8, OFF(tmp)), tmp);
		emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(mnt)), mnt);
		jump(cg, next);
		place(cg, notroot); /* a name, then up to the parent */
		emit(cg, KS_MOV64_REG(R3, R1));
		read_toff(cg, DT_TOFF_D_PARENT);
		emit_sa(cg, KS_LDX_MEM(BPF_DW, R1, R8, OFF(dent)), dent);
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), done);
		emit_to(cg, KS_JMP_REG(BPF_JEQ, R0, R1, 0), done); /* a root that is not mounted */
		emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(tmp)), tmp);
		emit(cg, KS_MOV64_REG(R3, R1));
		read_toff(cg, DT_TOFF_D_NAME);
		emit_sa(cg, KS_LDX_MEM(BPF_DW, R1, R8, OFF(cnt)), cnt);
		emit_to(cg, KS_JMP_IMM(BPF_JGE, R1, CWD_STEPS, 0), done);
		emit(cg, KS_MOV64_REG(R2, R1));
		emit(cg, KS_ALU64_IMM(BPF_LSH, R2, 3));
		emit(cg, KS_ALU64_REG(BPF_ADD, R2, R8));
		emit_sa(cg, KS_STX_MEM(BPF_DW, R2, R0, OFF(names)), names);
		emit(cg, KS_ALU64_IMM(BPF_ADD, R1, 1));
		emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R1, OFF(cnt)), cnt);
		emit_sa(cg, KS_LDX_MEM(BPF_DW, R0, R8, OFF(tmp)), tmp);
		emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(dent)), dent);
		place(cg, next);
	}
	place(cg, done);
	/* the names, the last found (nearest the root) first, each after a '/' */
	emit(cg, KS_MOV64_IMM(R9, 0));
	emit_sa(cg, KS_LDX_MEM(BPF_DW, R1, R8, OFF(cnt)), cnt);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R1, 0, 0), slash);
	for (int j = CWD_STEPS - 1; j >= 0; j--) {
		int skip = label(cg);

		emit_sa(cg, KS_LDX_MEM(BPF_DW, R1, R8, OFF(cnt)), cnt);
		emit_to(cg, KS_JMP_IMM(BPF_JLE, R1, j, 0), skip);
		emit_to(cg, KS_JMP_IMM(BPF_JGT, R9, (int32_t)cg->cg_strsize - 2, 0), end);
		emit(cg, KS_MOV64_REG(R1, R8));
		emit(cg, KS_ALU64_REG(BPF_ADD, R1, R9));
		emit_sa(cg, KS_ST_MEM(BPF_B, R1, OFF(out), '/'), out);
		emit(cg, KS_ALU64_IMM(BPF_ADD, R9, 1));
		emit(cg, KS_MOV64_REG(R1, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(out)), out);
		emit(cg, KS_ALU64_REG(BPF_ADD, R1, R9));
		emit(cg, KS_MOV64_IMM(R2, (int32_t)cg->cg_strsize));
		emit(cg, KS_ALU64_REG(BPF_SUB, R2, R9));
		emit_sa(cg, KS_LDX_MEM(BPF_DW, R3, R8, OFF(names + 8 * (uint32_t)j)),
			names + 8 * (uint32_t)j);
		emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel_str));
		emit_to(cg, KS_JMP_IMM(BPF_JSLT, R0, 1, 0), end);
		emit(cg, KS_ALU64_REG(BPF_ADD, R9, R0));
		emit(cg, KS_ALU64_IMM(BPF_SUB, R9, 1));
		place(cg, skip);
	}
	jump(cg, end);
	place(cg, slash); /* the root itself */
	emit_sa(cg, KS_ST_MEM(BPF_H, R8, OFF(out), '/'), out);
	place(cg, end);
	emit(cg, KS_MOV64_REG(R0, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(out)), out);
}

/*
 * uregs[i]: the user registers the kernel saved for the thread
 * (bpf_task_pt_regs() of the current task: at a USDT probe, those of the
 * trap).  i is DTrace's amd64 numbering (illumos dtrace_getreg: 0 to 18
 * the i386 names, then 19 + the REG_* of <sys/regset.h>), here as the
 * offset of the register in x86-64's struct pt_regs.  Not there: the
 * data segment selectors (UR_SEL), which a 64-bit Linux process runs with
 * null (0); the fs and gs bases (UR_FSBASE, UR_GSBASE), kept in the
 * task's thread_struct; the trap number and error code (UR_NONE), which
 * Linux does not keep for a probe: refused.
 */
enum { UR_NONE = -1, UR_SEL = -2, UR_FSBASE = -3, UR_GSBASE = -4 };

/* the amd64 numbers of the registers a stack walk starts from (REG_RIP, REG_RSP, REG_RBP) */
enum { DT_R_RIP = 19 + 17, DT_R_RSP = 19 + 20, DT_R_RBP = 19 + 10, DT_R_CS = 19 + 18 };

static const int16_t uregs_off[DT_UREGS_MAX] = {
	UR_SEL, UR_SEL, UR_SEL,	 UR_SEL,  112,	   104,	      32,	 152, 40,  96,
	88,	80,	UR_NONE, UR_NONE, 128,	   136,	      144,	 152, 160, 0,
	8,	16,	24,	 48,	  56,	   64,	      72,	 112, 104, 32,
	40,	96,	88,	 80,	  UR_NONE, UR_NONE,   128,	 136, 144, 152,
	160,	UR_SEL, UR_SEL,	 UR_SEL,  UR_SEL,  UR_FSBASE, UR_GSBASE,
};

void dt_cg_uregs_value(dt_cg_t *cg, dt_node_t *n)
{
	uint64_t i = n->dn_args->dn_value;
	int off = i < DT_UREGS_MAX ? uregs_off[i] : UR_NONE;

	if (off == UR_NONE)
		cg_error(cg, n,
			 "uregs[%llu] is not supported: Linux keeps no trap number or "
			 "error code for a probe",
			 (unsigned long long)i);
	if (off == UR_SEL) {
		emit(cg, KS_MOV64_IMM(R0, 0));
		return;
	}
	if (off == UR_FSBASE || off == UR_GSBASE) {
		static const dt_toff_t fs[] = { DT_TOFF_FSBASE }, gs[] = { DT_TOFF_GSBASE };

		task_chain(cg, off == UR_FSBASE ? fs : gs, 1, 8);
		return;
	}
	emit(cg, KS_CALL(BPF_FUNC_get_current_task_btf));
	emit(cg, KS_MOV64_REG(R1, R0));
	emit(cg, KS_CALL(BPF_FUNC_task_pt_regs));
	emit(cg, KS_LDX_MEM(BPF_DW, R0, R0, (int16_t)off));
}

/* ---------------------------------------------------------------- built-in variables */

void dt_cg_v_arg(dt_cg_t *cg, dt_node_t *n, int i)
{
	dt_cg_probe_arg(cg, i, n);
}

/* pid (arg 1: the upper half of pid_tgid) and tid; gid (1) and uid */
void dt_cg_v_upper_lower(dt_cg_t *cg, dt_node_t *n, int arg)
{
	bool ids =
	    n->dn_ident->di_func->db_id == DT_B_UID || n->dn_ident->di_func->db_id == DT_B_GID;

	emit(cg, KS_CALL(ids ? BPF_FUNC_get_current_uid_gid : BPF_FUNC_get_current_pid_tgid));
	if (arg)
		emit(cg, KS_ALU64_IMM(BPF_RSH, R0, 32));
	else
		extend(cg, R0, 4, false);
}

void dt_cg_v_ppid(dt_cg_t *cg, dt_node_t *n, int arg)
{
	static const dt_toff_t path[] = { DT_TOFF_REAL_PARENT, DT_TOFF_TGID };

	(void)n, (void)arg;
	task_chain(cg, path, 2, 4);
}

void dt_cg_v_vtimestamp(dt_cg_t *cg, dt_node_t *n, int arg)
{
	static const dt_toff_t path[] = { DT_TOFF_SUM_EXEC };

	(void)n, (void)arg;
	task_chain(cg, path, 1, 8);
}

/* errno: kept per thread by dt_cg_errno_prog() */
void dt_cg_v_errno(dt_cg_t *cg, dt_node_t *n, int arg)
{
	int none = label(cg);

	(void)n, (void)arg;
	if (!cg->cg_ps->ps_use_errno) { /* the watcher's program, made once */
		dt_cg_errno_prog(&cg->cg_ps->ps_errno);
		cg->cg_ps->ps_use_errno = true;
	}
	emit(cg, KS_CALL(BPF_FUNC_get_current_pid_tgid));
	emit(cg, KS_STX_MEM(BPF_W, FP, R0, SLOT_TMP));
	emit_map(cg, R1, DT_MAP_ERRNO);
	emit(cg, KS_MOV64_REG(R2, FP));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R2, SLOT_TMP));
	emit(cg, KS_CALL(BPF_FUNC_map_lookup_elem));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), none);
	emit(cg, KS_LDX_MEM(BPF_W, R0, R0, 0));
	place(cg, none);
}

/* r0 = what a helper without arguments returns (cpu, timestamp) */
void dt_cg_v_helper(dt_cg_t *cg, dt_node_t *n, int helper)
{
	(void)n;
	emit(cg, KS_CALL(helper));
}

void dt_cg_v_walltimestamp(dt_cg_t *cg, dt_node_t *n, int arg)
{
	(void)n, (void)arg;
	emit(cg, KS_CALL(BPF_FUNC_ktime_get_ns));
	emit(cg, KS_LDX_MEM(BPF_DW, R1, R7, DT_ST_WALLOFF));
	emit(cg, KS_ALU64_REG(BPF_ADD, R0, R1));
}

/* execname: the thread's command name, as curlwpsinfo->pr_name (cut at strsize - 1) */
/* __curpsargs: what the built-in curpsinfo->pr_psargs reads, for procfs.d */
void dt_cg_v_psargs(dt_cg_t *cg, dt_node_t *n, int arg)
{
	(void)arg;
	psargs_string(cg, n);
}

void dt_cg_v_execname(dt_cg_t *cg, dt_node_t *n, int arg)
{
	(void)n, (void)arg;
	comm_string(cg, false);
}

/* probeprov (0), probemod, probefunc, probename: a string each probe writes in its program */
void dt_cg_v_probestr(dt_cg_t *cg, dt_node_t *n, int which)
{
	(void)n;
	emit_pseudo(cg, &(dt_pseudo_t){ .px_kind = DT_PX_PROBESTR,
					.px_arg = which,
					.px_off = SA_OFF(dt_cg_tmp_string(cg)) });
}

/*
 * caller: illumos gives the kernel PC that called the probed kernel
 * function.  No probe here is in a kernel function (BEGIN, END, profile,
 * USDT: illumos's own would give a PC of its probe machinery, dtrace's
 * ioctl or the trap), so it is 0.
 */
void dt_cg_v_zero(dt_cg_t *cg, dt_node_t *n, int arg)
{
	(void)n, (void)arg;
	emit(cg, KS_MOV64_IMM(R0, 0));
}

/* ---------------------------------------------------------------- stacks */

#define DT_MAX_KFRAMES 127  /* perf_event_max_stack's default: bpf_get_stack's ceiling */
#define DT_MAX_UFRAMES 1024 /* a ustack() record of 8 KiB */

uint32_t dt_cg_stack_size(dt_cg_t *cg, const dt_node_t *n, uint32_t *nframes)
{
	dtrace_hdl_t *dtp = cg->cg_pcb->pcb_hdl;
	int kind = dt_cg_stack_kind(n);
	const dt_node_t *a = n->dn_args;
	uint64_t nf, ss = 0;

	/* illumos's defaults: stackframes 20, ustackframes 100, jstackframes 50 */
	if (kind == DT_B_STACK)
		nf = dt_option_get(dtp, "stackframes", 20);
	else if (kind == DT_B_USTACK)
		nf = dt_option_get(dtp, "ustackframes", 100);
	else
		nf = dt_option_get(dtp, "jstackframes", 50);
	if (kind == DT_B_JSTACK)
		ss = dt_option_get(dtp, "jstackstrsize", 512);
	if (a != NULL) {
		nf = a->dn_value;
		if (a->dn_next != NULL)
			ss = a->dn_next->dn_value;
	}
	if (nf == 0)
		nf = 1;
	if (kind == DT_B_STACK && nf > DT_MAX_KFRAMES)
		cg_limit(cg, n, "stack( ) of %llu frames: the kernel gives %d at most",
			 (unsigned long long)nf, DT_MAX_KFRAMES);
	if (kind != DT_B_STACK && nf > DT_MAX_UFRAMES)
		cg_limit(cg, n, "%s( ) of %llu frames: %d at most", n->dn_name,
			 (unsigned long long)nf, DT_MAX_UFRAMES);
	if (ss > 4096)
		cg_limit(cg, n, "%s( ) string size %llu: 4096 at most", n->dn_name,
			 (unsigned long long)ss);
	*nframes = (uint32_t)nf;
	return kind == DT_B_STACK ? 8 * (uint32_t)nf
				  : 8 + 8 * (uint32_t)nf + (((uint32_t)ss + 7) & ~7u);
}

/*
 * r0 = dt_ustack(r8 + sa, nf, pc, sp, bp): the current thread's user
 * stack from the registers the kernel saved when it entered from user
 * space (the same at a uprobe and at a tracepoint of a system call), its
 * frames and flags (bpf/dt_ustack.h); pc 0, no frames, for a thread
 * without user state.  The walk reads the unwind tables
 * the consumer loads (dt_unwind.c).
 */
static void ustack_walk(dt_cg_t *cg, uint32_t sa, uint32_t nf, bool store)
{
	emit(cg, KS_CALL(BPF_FUNC_get_current_task_btf));
	emit(cg, KS_MOV64_REG(R1, R0));
	emit(cg, KS_CALL(BPF_FUNC_task_pt_regs));
	emit(cg, KS_LDX_MEM(BPF_DW, R3, R0, uregs_off[DT_R_RIP]));
	emit(cg, KS_LDX_MEM(BPF_DW, R4, R0, uregs_off[DT_R_RSP]));
	emit(cg, KS_LDX_MEM(BPF_DW, R5, R0, uregs_off[DT_R_RBP]));
	/* a kernel thread (or the idle task) has no user state: cs is not ring 3, no stack */
	emit(cg, KS_LDX_MEM(BPF_DW, R1, R0, uregs_off[DT_R_CS]));
	emit(cg, KS_ALU64_IMM(BPF_AND, R1, 3));
	emit(cg, KS_JMP_IMM(BPF_JEQ, R1, 3, 1));
	emit(cg, KS_MOV64_IMM(R3, 0));
	if (store) {
		emit(cg, KS_MOV64_REG(R1, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(sa)), sa);
	} else {
		emit(cg, KS_MOV64_IMM(R1, 0));
	}
	emit(cg, KS_MOV64_IMM(R2, (int32_t)nf));
	dt_cg_call_sub(cg, DT_SUBR_USTACK);
	cg->cg_ps->ps_use_ustack = true;
}

void dt_cg_stack_into(dt_cg_t *cg, const dt_node_t *n, uint32_t sa)
{
	uint32_t nf, size = dt_cg_stack_size(cg, n, &nf);

	if (dt_cg_stack_kind(n) == DT_B_STACK) {
		/* bpf_get_stack() zeroes what it does not fill, and all on a failure */
		emit(cg, KS_MOV64_REG(R1, R6));
		emit(cg, KS_MOV64_REG(R2, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, IMM(sa)), sa);
		emit(cg, KS_MOV64_IMM(R3, (int32_t)size));
		emit(cg, KS_MOV64_IMM(R4, 0));
		emit(cg, KS_CALL(BPF_FUNC_get_stack));
		return;
	}
	/* the process ID, the frames, then the strings' zeros */
	emit(cg, KS_CALL(BPF_FUNC_get_current_pid_tgid));
	emit(cg, KS_ALU64_IMM(BPF_RSH, R0, 32));
	emit_sa(cg, KS_STX_MEM(BPF_DW, R8, R0, OFF(sa)), sa);
	ustack_walk(cg, sa + 8, nf, true);
	for (uint32_t o = 8 + 8 * nf; o < size; o += 8)
		emit_sa(cg, KS_ST_MEM(BPF_DW, R8, OFF(sa + o), 0), sa);
}

/*
 * ucaller: as illumos's DIF_VAR_UCALLER, the user stack's second entry
 * (dtrace_getupcstack(): the PC, then the caller), by the walker that
 * follows the unwind tables; 0 when there is none.
 */
void dt_cg_v_ucaller(dt_cg_t *cg, dt_node_t *n, int arg)
{
	uint32_t off = dt_cg_tmp_bytes(cg, 16);

	(void)n, (void)arg;
	ustack_walk(cg, off, 2, true);
	emit_sa(cg, KS_LDX_MEM(BPF_DW, R0, R8, OFF(off) + 8), off);
}

/*
 * stackdepth, ustackdepth: the whole stack's frames, as illumos counts
 * them (dtrace_getustackdepth walks to the end, whatever ustackframes
 * says), up to what a walk here gives at most: the user stack counted
 * without storing it (1,024 frames), the kernel's walked into a
 * temporary (bpf_get_stack: 127).
 */
void dt_cg_v_stackdepth(dt_cg_t *cg, dt_node_t *n, int user)
{
	uint32_t off;

	(void)n;
	if (user) {
		ustack_walk(cg, 0, DT_MAX_UFRAMES, false);
		emit(cg, KS_ALU64_IMM(BPF_LSH, R0, 32)); /* DT_USTACK_NFRAMES */
		emit(cg, KS_ALU64_IMM(BPF_RSH, R0, 32));
		return;
	}
	off = dt_cg_tmp_bytes(cg, 8 * DT_MAX_KFRAMES);
	/* bpf_get_stack(): the bytes it stored, or a negative errno (no frames) */
	emit(cg, KS_MOV64_REG(R1, R6));
	emit(cg, KS_MOV64_REG(R2, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R2, IMM(off)), off);
	emit(cg, KS_MOV64_IMM(R3, 8 * DT_MAX_KFRAMES));
	emit(cg, KS_MOV64_IMM(R4, 0));
	emit(cg, KS_CALL(BPF_FUNC_get_stack));
	emit(cg, KS_JMP_IMM(BPF_JSGE, R0, 0, 1));
	emit(cg, KS_MOV64_IMM(R0, 0));
	emit(cg, KS_ALU64_IMM(BPF_RSH, R0, 3));
}

/* id, epid: a constant of the probe's, known when linking */
void dt_cg_v_reloc(dt_cg_t *cg, dt_node_t *n, int kind)
{
	(void)n;
	emit_rel(cg, KS_MOV64_IMM(R0, 0), (dt_rlkind_t)kind, 0);
}

void dt_cg_builtin_var(dt_cg_t *cg, dt_node_t *n)
{
	const dt_builtin_t *b = n->dn_ident->di_func;
	const struct cg_builtin *g = dt_cg_generator(n);

	if (g != NULL) {
		g->g_fn(cg, n, g->g_arg);
		return;
	}
	if (b->db_flags & DB_F_XLPTR)
		cg_error(cg, n, "%s can only be used as %s->member here", b->db_name, b->db_name);
	cg_error(cg, n, "the built-in variable %s is not supported yet", b->db_name);
}

/* ---------------------------------------------------------------- subprograms */

/* A call of a shared subprogram, which linking appends to the program. */
void dt_cg_call_sub(dt_cg_t *cg, dt_subr_t sub)
{
	emit_rel(cg, KS_INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 0), DT_RL_CALL, sub);
	if (cg->cg_st != NULL)
		cg->cg_st->st_subrs[sub] = true;
}

/*
 * Count a drop (dt_cg_count_drop): one more in this CPU's dt_drops value
 * at offset r1, a constant at each call (a static subprogram: checked in
 * its caller's context).  r0 = 0.
 */
void dt_cg_sub_drop(dt_cg_t *cg)
{
	int out = label(cg);

	emit(cg, KS_MOV64_REG(R6, R1));
	dt_cg_emit_lookup0(cg, DT_MAP_DROPS);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), out);
	emit(cg, KS_ALU64_REG(BPF_ADD, R0, R6));
	emit(cg, KS_MOV64_IMM(R1, 1));
	emit(cg, KS_ATOMIC_ADD64(R0, R1, 0));
	place(cg, out);
	emit(cg, KS_MOV64_IMM(R0, 0));
	emit(cg, KS_EXIT());
}

/*
 * r0 = strcmp(r1, r2) over strsize bytes at most; r1, r2 point into map
 * values at 8-byte boundaries (every string's place is).  A word at a
 * time: the verifier walks a bounded loop once per iteration and keeps a
 * branch pending for each, so a byte loop over 4096-byte strings exceeded
 * its 8192 pending branches at one call.  Equal words holding a NUL end
 * it, equal; the first word that differs is compared byte by byte.
 * Linking makes it a global function (BTF_FUNC_GLOBAL, ks_code_t's
 * kc_gfunc): the verifier checks it once a program, on two pointers to
 * strsize bytes, and not again at each call, where it walked the loop
 * strsize/8 times (560 of a 1,244-instruction clause's verification).
 */
void dt_cg_sub_strcmp(dt_cg_t *cg)
{
	int loop = label(cg), diff = label(cg), ret = label(cg), eq = label(cg);

	/* a global function (dt_link.c): its arguments may be NULL for the verifier */
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R1, 0, 0), eq);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R2, 0, 0), eq);
	emit(cg, KS_MOV64_IMM(R3, 0));
	place(cg, loop);
	emit_to(cg, KS_JMP_IMM(BPF_JGE, R3, (int32_t)cg->cg_strsize, 0), eq);
	emit(cg, KS_MOV64_REG(R4, R1));
	emit(cg, KS_ALU64_REG(BPF_ADD, R4, R3));
	emit(cg, KS_LDX_MEM(BPF_DW, R4, R4, 0));
	emit(cg, KS_MOV64_REG(R5, R2));
	emit(cg, KS_ALU64_REG(BPF_ADD, R5, R3));
	emit(cg, KS_LDX_MEM(BPF_DW, R5, R5, 0));
	emit_to(cg, KS_JMP_REG(BPF_JNE, R4, R5, 0), diff);
	/* a zero byte in the word: (w - 0x01..01) & ~w & 0x80..80 is not 0 */
	emit_imm64(cg, R0, 0x0101010101010101ULL);
	emit(cg, KS_MOV64_REG(R5, R4));
	emit(cg, KS_ALU64_REG(BPF_SUB, R5, R0));
	emit(cg, KS_ALU64_IMM(BPF_XOR, R4, -1));
	emit(cg, KS_ALU64_REG(BPF_AND, R5, R4));
	emit_imm64(cg, R0, 0x8080808080808080ULL);
	emit(cg, KS_ALU64_REG(BPF_AND, R5, R0));
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R5, 0, 0), eq);
	emit(cg, KS_ALU64_IMM(BPF_ADD, R3, 8));
	jump(cg, loop);
	place(cg, diff); /* the first byte that differs, or a NUL before it (little-endian) */
	for (int k = 0; k < 8; k++) {
		emit(cg, KS_MOV64_REG(R0, R4));
		emit(cg, KS_MOV64_REG(R1, R5));
		if (k > 0) {
			emit(cg, KS_ALU64_IMM(BPF_RSH, R0, 8 * k));
			emit(cg, KS_ALU64_IMM(BPF_RSH, R1, 8 * k));
		}
		emit(cg, KS_ALU64_IMM(BPF_AND, R0, 0xff));
		emit(cg, KS_ALU64_IMM(BPF_AND, R1, 0xff));
		emit_to(cg, KS_JMP_REG(BPF_JNE, R0, R1, 0), ret);
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), eq);
	}
	place(cg, ret);
	emit(cg, KS_ALU64_REG(BPF_SUB, R0, R1));
	emit(cg, KS_EXIT());
	place(cg, eq);
	emit(cg, KS_MOV64_IMM(R0, 0));
	emit(cg, KS_EXIT());
}

/*
 * A subprogram written in C (libdtrace/bpf/, turned into instructions by
 * bpf2c at build time): its instructions, its calls and callback
 * addresses as relocations linking resolves, strsize written in (the
 * bodies compare every index with it, a constant the verifier knows).
 */
void dt_cg_sub_bpf(dt_cg_t *cg, dt_subr_t k)
{
	const dt_bpf_func_t *f = &dt_bpf_funcs[k - DT_SUBR_BPF];

	for (size_t i = 0; i < f->bf_len; i++) {
		struct bpf_insn in = f->bf_insns[i];
		const dt_bpf_rel_t *rl = NULL;

		for (size_t r = 0; r < f->bf_nrels; r++)
			if (f->bf_rels[r].br_kind != DT_BPF_R_NONE && f->bf_rels[r].br_insn == i)
				rl = &f->bf_rels[r];
		if (rl == NULL) {
			emit(cg, in);
		} else if (rl->br_kind == DT_BPF_R_STRSIZE) {
			in.imm = (int32_t)cg->cg_strsize;
			emit(cg, in);
		} else {
			emit_rel(cg, in,
				 rl->br_kind == DT_BPF_R_CALL	? DT_RL_CALL
				 : rl->br_kind == DT_BPF_R_FUNC ? DT_RL_FUNC
								: DT_RL_MAP,
				 rl->br_to);
		}
	}
}

/* ---------------------------------------------------------------- subroutines */

/* copyinstr(addr[, n]): n bytes at most, and the NUL */
void dt_cg_s_copyinstr(dt_cg_t *cg, dt_node_t *n, int arg)
{
	dt_node_t *a = n->dn_args;
	uint32_t off = dt_cg_tmp_string(cg), len = cg->cg_strsize;
	int small;

	(void)arg;
	if (a->dn_next == NULL) {
		dt_cg_expr(cg, a);
		dt_cg_user_string(cg, off, true);
		return;
	}
	dt_cg_expr(cg, a);
	push(cg, n);
	dt_cg_expr(cg, a->dn_next);
	small = label(cg);
	/* illumos: maxlen + 1 bytes if maxlen < strsize (unsigned), else strsize */
	emit(cg, KS_MOV64_REG(R2, R0));
	emit(cg, KS_MOV64_IMM(R0, (int32_t)len));
	emit_to(cg, KS_JMP_IMM(BPF_JGE, R2, (int32_t)len, 0), small);
	emit(cg, KS_MOV64_REG(R0, R2));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R0, 1));
	place(cg, small);
	emit(cg, KS_MOV64_REG(R2, R0));
	pop(cg, R0);
	emit_sa(cg, KS_ST_MEM(BPF_B, R8, OFF(off), 0), off);
	dt_cg_user_string(cg, off, false);
}

/*
 * strlen(s): the kernel's string copy into a temporary measures it (the
 * bytes it copied, the NUL too): one helper call, where a byte loop cost
 * the verifier a pending branch per byte and per call.
 */
void dt_cg_s_strlen(dt_cg_t *cg, dt_node_t *n, int arg)
{
	uint32_t off = dt_cg_tmp_string(cg);
	int ok = label(cg);

	(void)arg;
	dt_cg_str_operand(cg, n->dn_args);
	emit(cg, KS_MOV64_REG(R3, R0));
	emit(cg, KS_MOV64_REG(R1, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
	emit(cg, KS_MOV64_IMM(R2, (int32_t)cg->cg_strsize));
	emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel_str));
	emit(cg, KS_ALU64_IMM(BPF_SUB, R0, 1));
	emit_to(cg, KS_JMP_IMM(BPF_JSGE, R0, 0, 0), ok);
	emit(cg, KS_MOV64_IMM(R0, 0));
	place(cg, ok);
}

/*
 * strjoin(a, b): a, then b from a's NUL: strsize bytes in all.  Two
 * temporaries are reserved so that the verifier sees the second copy, at a
 * variable offset, inside the scratch value.
 */
void dt_cg_s_strjoin(dt_cg_t *cg, dt_node_t *n, int arg)
{
	dt_node_t *a = n->dn_args;
	uint32_t to = dt_cg_tmp_next(cg), off, len = cg->cg_strsize;
	int ok = label(cg), fits = label(cg);

	(void)arg;
	dt_cg_str_operand(cg, a); /* in order, as DIF evaluates arguments */
	push(cg, n);
	dt_cg_str_operand(cg, a->dn_next);
	push(cg, n);
	off = dt_cg_tmp_string(cg);
	(void)dt_cg_tmp_string(cg);
	emit(cg, KS_LDX_MEM(BPF_DW, R3, FP, dt_cg_slot_at(cg->cg_sp - 1)));
	emit(cg, KS_MOV64_REG(R1, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
	emit(cg, KS_MOV64_IMM(R2, (int32_t)len));
	emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel_str));
	emit_to(cg, KS_JMP_IMM(BPF_JSGE, R0, 1, 0), ok); /* bytes copied, the NUL too */
	emit(cg, KS_MOV64_IMM(R0, 1));
	place(cg, ok);
	emit(cg, KS_ALU64_IMM(BPF_SUB, R0, 1)); /* a's length */
	emit_to(cg, KS_JMP_IMM(BPF_JLE, R0, (int32_t)len - 1, 0), fits);
	emit(cg, KS_MOV64_IMM(R0, (int32_t)len - 1));
	place(cg, fits);
	emit(cg, KS_MOV64_REG(R1, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
	emit(cg, KS_ALU64_REG(BPF_ADD, R1, R0));
	emit(cg, KS_MOV64_IMM(R2, (int32_t)len));
	emit(cg, KS_ALU64_REG(BPF_SUB, R2, R0)); /* 1 to strsize */
	pop(cg, R3);
	cg->cg_sp--; /* a */
	emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel_str));
	dt_cg_result_down(cg, to, off);
}

/* Is the subroutine's parameter i a string (its prototype's 's')? */
static bool str_param(const dt_node_t *n, int i)
{
	const char *p = n->dn_ident != NULL && n->dn_ident->di_func != NULL
			    ? n->dn_ident->di_func->db_args
			    : NULL;

	return p != NULL && (int)strlen(p) > i && p[i] == 's';
}

/* the DT_SR_SUBR region holds at least size bytes (json()'s is the larger) */
static void subr_region(dt_cg_t *cg, uint32_t size)
{
	if (cg->cg_ps->ps_subrsize < size)
		cg->cg_ps->ps_subrsize = size;
}

/*
 * A call of a subroutine whose body is C (libdtrace/bpf/dt_strings.c):
 * r1 a new temporary for a string result, then the arguments in order
 * (strings as str_operand leaves them, pointers to strsize bytes; an
 * integer where a string may be, strtok's NULL, as it is), then the nd
 * values of dflt[], then the scratch address state if not 0 (strtok's
 * saved string); r0 the result.  A string result the body gives as
 * NULL (strchr() finding nothing, strtok() at the end) faults as illumos
 * does reading it: an invalid address, 0 (DT_FLT_ILLOP for lltostr()'s
 * base).
 */
static void call_bpf(dt_cg_t *cg, dt_node_t *n, dt_subr_t sub, int nd, const int64_t *dflt,
		     uint32_t state)
{
	bool str = is_string(n->dn_type), nullok = cg->cg_nullnode == n;
	uint32_t to = dt_cg_tmp_next(cg), off;
	int na = 0, reg = str ? R2 : R1, ok = label(cg);

	cg->cg_nullnode = NULL;

	for (dt_node_t *a = n->dn_args; a != NULL; a = a->dn_next, na++) {
		/* strtok(s, ...) of a NULL string goes on with the saved one, as NULL */
		if (sub == DT_SUBR_STRTOK && na == 0 && is_string(a->dn_type))
			dt_cg_str_or_null(cg, a);
		else if (is_string(a->dn_type) || dt_type_is_ptr(dt_type_resolve(a->dn_type)) ||
			 (str_param(n, na) && !(sub == DT_SUBR_STRTOK && na == 0)))
			dt_cg_str_operand(cg, a); /* NULL for a string: read at 0, a fault */
		else
			dt_cg_expr(cg, a);
		push(cg, a);
	}
	if (reg + na + nd + (state != 0) - 1 > R5)
		cg_limit(cg, n, "too many arguments for a subroutine body");
	off = str ? dt_cg_tmp_string(cg) : 0; /* above the arguments' */
	for (int i = na - 1; i >= 0; i--)
		pop(cg, reg + i);
	for (int d = 0; d < nd; d++)
		emit_imm64(cg, reg + na + d, (uint64_t)dflt[d]);
	if (state != 0) {
		emit(cg, KS_MOV64_REG(reg + na + nd, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, reg + na + nd, IMM(state)), state);
	}
	if (str) {
		emit(cg, KS_MOV64_REG(R1, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
	}
	dt_cg_call_sub(cg, sub);
	if (!str)
		return;
	if (nullok && sub != DT_SUBR_LLTOSTR) { /* NULL stays 0, for str_nullable */
		emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), ok);
		dt_cg_result_down(cg, to, off);
		place(cg, ok);
		return;
	}
	if (sub == DT_SUBR_STRCHR || sub == DT_SUBR_STRRCHR || sub == DT_SUBR_STRSTR ||
	    sub == DT_SUBR_STRTOK || sub == DT_SUBR_LLTOSTR ||
	    sub == DT_SUBR_JSON) { /* the bodies that may be NULL */
		emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), ok);
		dt_cg_fault(cg, sub == DT_SUBR_LLTOSTR ? DT_FLT_ILLOP : DT_FLT_BADADDR, R0);
		place(cg, ok);
	}
	dt_cg_result_down(cg, to, off); /* the verifier knows the temporary from here */
}

/* how many arguments the script gave */
static int nargs(const dt_node_t *n)
{
	int k = 0;

	for (const dt_node_t *a = n->dn_args; a != NULL; a = a->dn_next)
		k++;
	return k;
}

/* substr(s, index [, length]): without a length, strsize (as illumos) */
void dt_cg_s_substr(dt_cg_t *cg, dt_node_t *n, int arg)
{
	int64_t len = cg->cg_strsize;

	(void)arg;
	call_bpf(cg, n, DT_SUBR_SUBSTR, nargs(n) == 2, &len, 0);
}

/* index(s, sub [, pos]), rindex(): the C body is told whether pos was given */
void dt_cg_s_index(dt_cg_t *cg, dt_node_t *n, int sub)
{
	static const int64_t nopos[2] = { 0, 0 }, haspos[1] = { 1 };

	if (nargs(n) == 2)
		call_bpf(cg, n, (dt_subr_t)sub, 2, nopos, 0);
	else
		call_bpf(cg, n, (dt_subr_t)sub, 1, haspos, 0);
	normalize(cg, R0, n->dn_type);
}

/* lltostr(v [, base]): base 10 unless given */
void dt_cg_s_lltostr(dt_cg_t *cg, dt_node_t *n, int arg)
{
	static const int64_t ten = 10;

	(void)arg;
	call_bpf(cg, n, DT_SUBR_LLTOSTR, nargs(n) == 1, &ten, 0);
}

/* the subroutines whose arguments are all given: strstr, strchr, toupper, basename... */
void dt_cg_s_cbody(dt_cg_t *cg, dt_node_t *n, int sub)
{
	call_bpf(cg, n, (dt_subr_t)sub, 0, NULL, 0);
}

/*
 * strtoll(s [, base]): a base outside 2..36 is an illegal operation (as
 * illumos), checked before the body runs.
 */
void dt_cg_s_strtoll(dt_cg_t *cg, dt_node_t *n, int arg)
{
	dt_node_t *a = n->dn_args;
	int bad = label(cg), ok = label(cg);

	(void)arg;
	dt_cg_str_operand(cg, a);
	push(cg, a);
	if (a->dn_next != NULL) {
		dt_cg_expr(cg, a->dn_next);
		emit_to(cg, KS_JMP_IMM(BPF_JSLE, R0, 1, 0), bad);
		emit_to(cg, KS_JMP_IMM(BPF_JSLE, R0, 36, 0), ok);
		place(cg, bad);
		dt_cg_fault(cg, DT_FLT_ILLOP, -1);
		place(cg, ok);
		emit(cg, KS_MOV64_REG(R2, R0));
	} else {
		emit(cg, KS_MOV64_IMM(R2, 10));
	}
	pop(cg, R1);
	dt_cg_call_sub(cg, DT_SUBR_STRTOLL);
}

/*
 * inet_ntoa(p) (which 0), inet_ntoa6(p) (1), inet_ntop(af, p) (2): the
 * address is read from the traced process by the body (its work area at
 * strsize + 64 in DT_SR_SUBR), or from scratch memory when it points into
 * the alloca region (copyin() or alloca() gave it: illumos dtrace_canload
 * accepts scratch), which gives NULL
 * when it cannot (a fault at the address, kept in r9 across the call) and
 * 1 for an af that is neither IPv4 nor IPv6 (an illegal operation).
 */
void dt_cg_s_inet(dt_cg_t *cg, dt_node_t *n, int which)
{
	dt_node_t *a = n->dn_args;
	uint32_t off = dt_cg_tmp_string(cg), work = SA(DT_SR_SUBR, cg->cg_strsize + 64);
	int notnull = label(cg), ok = label(cg);

	subr_region(cg, DT_SUBR_REGION(cg->cg_strsize));
	if (which == 2) {
		dt_cg_expr(cg, a);
		push(cg, a);
		a = a->dn_next;
	}
	dt_cg_expr(cg, a);
	emit(cg, KS_MOV64_REG(R9, R0));
	if (which == 2)
		pop(cg, R3);
	else
		emit(cg, KS_MOV64_IMM(R3, which == 0 ? 2 : 10));
	emit(cg, KS_MOV64_REG(R2, R9));
	emit(cg, KS_MOV64_IMM(R4, which == 1));
	if (dt_cg_may_scratch(a)) {
		/* in the alloca region: read as scratch (2 in r4), as read_any does */
		uint32_t d = SA(DT_SR_ALLOCA, DT_ALLOCA_DATA);
		int user = label(cg);

		emit(cg, KS_MOV64_REG(R5, R8));
		emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R5, IMM(d)), d);
		emit_to(cg, KS_JMP_REG(BPF_JLT, R9, R5, 0), user);
		emit(cg, KS_ALU64_IMM(BPF_ADD, R5, (int32_t)dt_cg_scratch_limit(cg)));
		emit_to(cg, KS_JMP_REG(BPF_JGE, R9, R5, 0), user);
		emit(cg, KS_ALU64_IMM(BPF_OR, R4, 2));
		place(cg, user);
	}
	emit(cg, KS_MOV64_REG(R5, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R5, IMM(work)), work);
	emit(cg, KS_MOV64_REG(R1, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(off)), off);
	dt_cg_call_sub(cg, DT_SUBR_INET);
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), notnull);
	dt_cg_fault(cg, DT_FLT_BADADDR, R9);
	place(cg, notnull);
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 1, 0), ok);
	dt_cg_fault(cg, DT_FLT_ILLOP, -1);
	place(cg, ok);
	emit(cg, KS_MOV64_REG(R0, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R0, IMM(off)), off);
}

/*
 * cleanpath(s): its body carries the output's length and its state in
 * work words of the DT_SR_SUBR region (map memory the verifier does not
 * track: dt_strings.c says why).
 */
void dt_cg_s_cleanpath(dt_cg_t *cg, dt_node_t *n, int arg)
{
	(void)arg;
	subr_region(cg, DT_SUBR_REGION(cg->cg_strsize));
	call_bpf(cg, n, DT_SUBR_CLEANPATH, 0, NULL, SA(DT_SR_SUBR, cg->cg_strsize + 40));
}

/*
 * strtok(s, delim): the saved string is in the DT_SR_SUBR region (per CPU;
 * linking clears its "saved" byte when a probe fires, so it lasts the
 * firing, as illumos's), passed
 * as a fourth argument; s is NULL (the constant, 0) to go on with it.
 */
void dt_cg_s_strtok(dt_cg_t *cg, dt_node_t *n, int arg)
{
	dt_node_t *s = n->dn_args;

	(void)arg;
	if (!is_string(s->dn_type) && !dt_type_is_ptr(dt_type_resolve(s->dn_type)) &&
	    !((s->dn_flags & DT_NF_CONST) && s->dn_value == 0))
		cg_error(cg, s, "strtok( )'s first argument must be a string or NULL");
	subr_region(cg, DT_SUBR_REGION(cg->cg_strsize));
	call_bpf(cg, n, DT_SUBR_STRTOK, 0, NULL, SA(DT_SR_SUBR, 0));
}

/*
 * json(json, element): the body's work words and list of names are in the
 * DT_SR_SUBR region after the others' (DT_SUBR_JSON_REGION); NULL (the
 * element absent, the text malformed) faults where it is used as a
 * string, as illumos reading address 0, and is NULL where compared or
 * assigned.
 */
void dt_cg_s_json(dt_cg_t *cg, dt_node_t *n, int arg)
{
	(void)arg;
	subr_region(cg, DT_SUBR_JSON_REGION(cg->cg_strsize));
	call_bpf(cg, n, DT_SUBR_JSON, 0, NULL, SA(DT_SR_SUBR, DT_SUBR_REGION(cg->cg_strsize)));
}

/*
 * htons, htonl, htonll and their ntoh twins (bits: 16, 32, 64): the
 * argument converted to the prototype's uintN_t, as C would, then in
 * network order.  BPF_TO_BE is both: it keeps the low bits and swaps
 * them on a little-endian machine only, so the code is right on either;
 * ntoh is the same swap.
 */
void dt_cg_s_byteorder(dt_cg_t *cg, dt_node_t *n, int bits)
{
	dt_cg_expr(cg, n->dn_args);
	emit(cg, KS_ENDIAN(BPF_TO_BE, R0, bits));
}

/*
 * getmajor(d) and getminor(d) (major: 1 or 0): the parts of a kernel
 * dev_t, Linux's MAJOR() and MINOR(): 12 bits from bit 20, and the 20
 * below (not user space's dev_t, stat(2)'s st_dev, which glibc lays out
 * another way: major(3) and minor(3))
 */
void dt_cg_s_devnum(dt_cg_t *cg, dt_node_t *n, int major)
{
	dt_cg_expr(cg, n->dn_args);
	if (major) {
		emit(cg, KS_ALU64_IMM(BPF_RSH, R0, 20));
		emit(cg, KS_ALU64_IMM(BPF_AND, R0, 0xfff));
	} else {
		emit(cg, KS_ALU64_IMM(BPF_AND, R0, 0xfffff));
	}
}

/* alloca(size): size bytes of scratch memory, for this clause (illumos: not zeroed) */
void dt_cg_s_alloca(dt_cg_t *cg, dt_node_t *n, int arg)
{
	(void)arg;
	dt_cg_expr(cg, n->dn_args);
	dt_cg_allocate(cg);
	dt_cg_alloca_base(cg, R1);
	emit(cg, KS_ALU64_REG(BPF_ADD, R0, R1));
}

/*
 * copyin(addr, size): size bytes of the process's memory at addr, copied
 * into scratch memory allocated as alloca() does; r0 = where.  A bad
 * address faults, giving it.
 */
void dt_cg_s_copyin(dt_cg_t *cg, dt_node_t *n, int arg)
{
	uint32_t d = SA(DT_SR_ALLOCA, DT_ALLOCA_DATA);
	int16_t s_addr, s_off;
	int ok = label(cg);

	(void)arg;
	dt_cg_expr(cg, n->dn_args);
	push(cg, n);
	s_addr = dt_cg_slot_at(cg->cg_sp);
	dt_cg_expr(cg, n->dn_args->dn_next);
	dt_cg_allocate(cg);
	push(cg, n);
	s_off = dt_cg_slot_at(cg->cg_sp);
	emit(cg, KS_MOV64_REG(R1, R8));
	emit_sa(cg, KS_ALU64_IMM(BPF_ADD, R1, IMM(d)), d);
	emit(cg, KS_ALU64_REG(BPF_ADD, R1, R0));
	emit(cg, KS_MOV64_REG(R2, R9));
	emit(cg, KS_LDX_MEM(BPF_DW, R3, FP, s_addr));
	emit(cg, KS_CALL(BPF_FUNC_probe_read_user));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), ok);
	emit(cg, KS_LDX_MEM(BPF_DW, R9, FP, s_addr));
	dt_cg_fault(cg, DT_FLT_BADADDR, R9);
	place(cg, ok);
	emit(cg, KS_LDX_MEM(BPF_DW, R0, FP, s_off));
	dt_cg_alloca_base(cg, R1);
	emit(cg, KS_ALU64_REG(BPF_ADD, R0, R1));
	cg->cg_sp -= 2;
}

/*
 * copyinto(addr, size, dest) and bcopy(src, dest, size): size bytes into
 * dest, which must be scratch memory this clause allocated (illumos:
 * dtrace_inscratch, else a bad address fault on dest).  copyinto reads
 * the process's memory; bcopy reads scratch memory or the process's.
 */
void dt_cg_s_copyto(dt_cg_t *cg, dt_node_t *n, int bcopy)
{
	dt_node_t *src = n->dn_args;
	dt_node_t *dest = bcopy ? src->dn_next : src->dn_next->dn_next;
	dt_node_t *size = bcopy ? src->dn_next->dn_next : src->dn_next;
	int16_t s_src, s_size;
	int ok = label(cg);
	size_t vsz = 0;
	bool var = bcopy && dt_cg_var_blob(cg, src, &vsz); /* bcopy(buf, p, n) */

	if (!var)
		dt_cg_expr(cg, src);
	push(cg, n);
	s_src = dt_cg_slot_at(cg->cg_sp);
	dt_cg_expr(cg, size);
	push(cg, n);
	s_size = dt_cg_slot_at(cg->cg_sp);
	if (var) { /* more than the variable holds faults at it (dtrace_canload) */
		int fits = label(cg);

		emit_to(cg, KS_JMP_IMM(BPF_JLE, R0, (int32_t)vsz, 0), fits);
		emit(cg, KS_MOV64_IMM(R9, (int32_t)vsz)); /* the first byte past it */
		dt_cg_fault(cg, DT_FLT_BADADDR, R9);
		place(cg, fits);
	}
	dt_cg_expr(cg, dest);
	emit(cg, KS_LDX_MEM(BPF_DW, R9, FP, s_size));
	dt_cg_scratch_dest(cg);
	emit(cg, KS_MOV64_REG(R2, R9));
	emit(cg, KS_LDX_MEM(BPF_DW, R3, FP, s_src));
	if (var)
		emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel));
	else if (bcopy)
		dt_cg_read_any(cg, BPF_FUNC_probe_read_user);
	else
		emit(cg, KS_CALL(BPF_FUNC_probe_read_user));
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R0, 0, 0), ok);
	emit(cg, KS_LDX_MEM(BPF_DW, R9, FP, s_src));
	dt_cg_fault(cg, DT_FLT_BADADDR, R9);
	place(cg, ok);
	cg->cg_sp -= 2;
}

/* rand(): bpf_get_prandom_u32 as an int (illumos: a per-CPU generator of its own) */
void dt_cg_s_rand(dt_cg_t *cg, dt_node_t *n, int arg)
{
	(void)n, (void)arg;
	emit(cg, KS_CALL(BPF_FUNC_get_prandom_u32));
	extend(cg, R0, 4, true);
}

#define PROGENY_DEPTH 64 /* the ancestors progenyof() looks at */

/*
 * progenyof(pid): is the current process pid or a descendant of it?  As
 * illumos walks p_parent: the process, then each real_parent up to the
 * idle task (pid 0, its own parent), at most PROGENY_DEPTH of them.
 */
void dt_cg_s_progenyof(dt_cg_t *cg, dt_node_t *n, int arg)
{
	int loop = label(cg), yes = label(cg), no = label(cg), done = label(cg);
	int16_t s_task, s_count;

	(void)arg;
	dt_cg_expr(cg, n->dn_args);
	if (cg->cg_sp + 2 > SLOT_MAX)
		cg_limit(cg, n, "expression too deeply nested for the BPF stack");
	s_task = dt_cg_slot_at(++cg->cg_sp);
	s_count = dt_cg_slot_at(++cg->cg_sp);
	extend(cg, R0, 4, true); /* a pid_t */
	emit(cg, KS_MOV64_REG(R9, R0));
	emit(cg, KS_CALL(BPF_FUNC_get_current_task));
	emit(cg, KS_STX_MEM(BPF_DW, FP, R0, s_task)); /* the task */
	emit(cg, KS_ST_MEM(BPF_DW, FP, s_count, 0));  /* the count */
	place(cg, loop);
	emit(cg, KS_LDX_MEM(BPF_DW, R1, FP, s_count));
	emit_to(cg, KS_JMP_IMM(BPF_JGE, R1, PROGENY_DEPTH, 0), no);
	emit(cg, KS_ALU64_IMM(BPF_ADD, R1, 1));
	emit(cg, KS_STX_MEM(BPF_DW, FP, R1, s_count));
	emit(cg, KS_ST_MEM(BPF_DW, FP, SLOT_TMP, 0));
	emit(cg, KS_LDX_MEM(BPF_DW, R3, FP, s_task));
	add_toff(cg, R3, DT_TOFF_TGID);
	emit(cg, KS_MOV64_REG(R1, FP));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R1, SLOT_TMP));
	emit(cg, KS_MOV64_IMM(R2, 4));
	emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel));
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), no);
	emit(cg, KS_LDX_MEM(BPF_W, R1, FP, SLOT_TMP));
	extend(cg, R1, 4, true);
	emit_to(cg, KS_JMP_REG(BPF_JEQ, R1, R9, 0), yes);
	emit_to(cg, KS_JMP_IMM(BPF_JEQ, R1, 0, 0), no); /* the idle task: the top */
	emit(cg, KS_LDX_MEM(BPF_DW, R3, FP, s_task));
	add_toff(cg, R3, DT_TOFF_REAL_PARENT);
	emit(cg, KS_MOV64_REG(R1, FP));
	emit(cg, KS_ALU64_IMM(BPF_ADD, R1, s_task));
	emit(cg, KS_MOV64_IMM(R2, 8));
	emit(cg, KS_CALL(BPF_FUNC_probe_read_kernel));
	emit_to(cg, KS_JMP_IMM(BPF_JNE, R0, 0, 0), no);
	jump(cg, loop);
	place(cg, yes);
	emit(cg, KS_MOV64_IMM(R0, 1));
	jump(cg, done);
	place(cg, no);
	emit(cg, KS_MOV64_IMM(R0, 0));
	place(cg, done);
	cg->cg_sp -= 2;
}

/* A subroutine's value in r0. */
void dt_cg_call(dt_cg_t *cg, dt_node_t *n)
{
	const struct cg_builtin *g = dt_cg_generator(n);

	uint32_t mark = cg->cg_tmp;

	if (g == NULL || n->dn_ident->di_func->db_kind != DB_FUNC)
		cg_error(cg, n, "%s( ) is not supported yet", n->dn_name);
	g->g_fn(cg, n, g->g_arg);
	/*
	 * A string result is in the first temporary its generator took, or
	 * was moved there (result_down): the arguments' are free.
	 */
	if (is_string(n->dn_type) && cg->cg_tmp > mark)
		cg->cg_tmp = mark + cg->cg_strsize;
}
