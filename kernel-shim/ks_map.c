/*
 * ks_map.c -- maps: creating them, their elements one by one, whole maps
 * read in batches, and the CPU count per-CPU values follow.
 *
 * Batched reads (BPF_MAP_LOOKUP_BATCH) came with Linux 5.6 and only for
 * some map types; where the first batch is refused, the same cursor walks
 * the map one key at a time, so callers see one way of reading a map.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ks.h"

#define ENOTSUPP_KERNEL 524 /* the kernel's ENOTSUPP: a map type without batches */

enum { MB_FIRST, MB_BATCHED, MB_SINGLE, MB_DONE };

int ks_map_create(enum bpf_map_type type, const char *name, uint32_t key_size, uint32_t value_size,
		  uint32_t max_entries, uint32_t flags)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = flags);
	int fd = ks_fault(KS_OP_MAP_CREATE);

	if (fd != 0)
		return fd;
	fd = bpf_map_create(type, name, key_size, value_size, max_entries, &opts);
	return fd < 0 ? -errno : fd;
}

int ks_map_create_outer(const char *name, uint32_t max_entries, int inner_fd)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .inner_map_fd = (uint32_t)inner_fd);
	int fd = ks_fault(KS_OP_MAP_CREATE);

	if (fd != 0)
		return fd;
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, name, 4, 4, max_entries, &opts);
	return fd < 0 ? -errno : fd;
}

int ks_map_lookup(int fd, const void *key, void *val)
{
	return bpf_map_lookup_elem(fd, key, val) == 0 ? 0 : -errno;
}

int ks_map_update(int fd, const void *key, const void *val, uint64_t flags)
{
	int err = ks_fault(KS_OP_MAP_UPDATE);

	if (err != 0)
		return err;
	return bpf_map_update_elem(fd, key, val, flags) == 0 ? 0 : -errno;
}

int ks_map_delete(int fd, const void *key)
{
	return bpf_map_delete_elem(fd, key) == 0 ? 0 : -errno;
}

int ks_map_next_key(int fd, const void *key, void *next)
{
	return bpf_map_get_next_key(fd, key, next) == 0 ? 0 : -errno;
}

void ks_map_batch_init(ks_map_batch_t *b, int fd, uint32_t keysize, uint32_t valsize)
{
	memset(b, 0, sizeof(*b));
	b->mb_fd = fd;
	b->mb_keysize = keysize;
	b->mb_valsize = valsize;
	b->mb_state = MB_FIRST;
}

void ks_map_batch_fini(ks_map_batch_t *b)
{
	if (b == NULL)
		return;
	free(b->mb_last);
	b->mb_last = NULL;
	b->mb_state = MB_DONE;
}

bool ks_map_batch_done(const ks_map_batch_t *b)
{
	return b->mb_state == MB_DONE;
}

/* Up to n entries by next_key and lookup, from the last key read. */
static int one_by_one(ks_map_batch_t *b, uint8_t *keys, uint8_t *vals, uint32_t n)
{
	uint32_t got = 0;

	if (b->mb_last == NULL && (b->mb_last = malloc(b->mb_keysize ? b->mb_keysize : 1)) == NULL)
		return -ENOMEM;
	while (got < n) {
		uint8_t *k = keys + (size_t)got * b->mb_keysize;
		int err = ks_map_next_key(b->mb_fd, b->mb_state == MB_FIRST ? NULL : b->mb_last, k);

		if (err == -ENOENT) {
			b->mb_state = MB_DONE;
			break;
		}
		if (err != 0)
			return err;
		b->mb_state = MB_SINGLE;
		memcpy(b->mb_last, k, b->mb_keysize);
		err = ks_map_lookup(b->mb_fd, k, vals + (size_t)got * b->mb_valsize);
		if (err == 0)
			got++;
		else if (err != -ENOENT) /* deleted since next_key: skipped */
			return err;
	}
	return (int)got;
}

int ks_map_lookup_batch(ks_map_batch_t *b, void *keys, void *vals, uint32_t n)
{
	LIBBPF_OPTS(bpf_map_batch_opts, o);
	uint32_t got = n;
	int err;

	if (n > INT32_MAX)
		return -EINVAL;
	if (b->mb_state == MB_DONE || n == 0)
		return 0;
	if (b->mb_state == MB_SINGLE)
		return one_by_one(b, keys, vals, n);
	err = bpf_map_lookup_batch(b->mb_fd, b->mb_state == MB_FIRST ? NULL : &b->mb_token,
				   &b->mb_token, keys, vals, &got, &o);
	err = err < 0 ? errno : 0;
	if (b->mb_state == MB_FIRST &&
	    (err == EINVAL || err == ENOTSUP || err == ENOTSUPP_KERNEL)) /* no batches here */
		return one_by_one(b, keys, vals, n);
	if (err == ENOENT) { /* these were the last */
		b->mb_state = MB_DONE;
		return (int)got;
	}
	if (err != 0)
		return -err;
	b->mb_state = MB_BATCHED;
	return (int)got;
}

int ks_ncpus(void)
{
	int n = libbpf_num_possible_cpus();

	return n > 0 ? n : n < 0 ? n : -EINVAL;
}

/*
 * The iterator's program: for each entry (ctx: struct bpf_iter__bpf_map_elem,
 * meta then map, key, value, 8 bytes each), bpf_seq_write of the key, then
 * of the value; the last call has a NULL key.
 */
int ks_map_iter_prog(uint32_t btf_id, uint32_t keysize, uint32_t valsize)
{
	const struct bpf_insn insns[] = {
		KS_LDX_MEM(BPF_DW, BPF_REG_6, BPF_REG_1, 0),  /* meta */
		KS_LDX_MEM(BPF_DW, BPF_REG_7, BPF_REG_1, 16), /* key */
		KS_LDX_MEM(BPF_DW, BPF_REG_8, BPF_REG_1, 24), /* value */
		KS_JMP_IMM(BPF_JEQ, BPF_REG_7, 0, 10),
		KS_JMP_IMM(BPF_JEQ, BPF_REG_8, 0, 9),
		KS_LDX_MEM(BPF_DW, BPF_REG_6, BPF_REG_6, 0), /* meta->seq */
		KS_MOV64_REG(BPF_REG_1, BPF_REG_6),
		KS_MOV64_REG(BPF_REG_2, BPF_REG_7),
		KS_MOV64_IMM(BPF_REG_3, (int32_t)keysize),
		KS_CALL(BPF_FUNC_seq_write),
		KS_MOV64_REG(BPF_REG_1, BPF_REG_6),
		KS_MOV64_REG(BPF_REG_2, BPF_REG_8),
		KS_MOV64_IMM(BPF_REG_3, (int32_t)valsize),
		KS_CALL(BPF_FUNC_seq_write),
		KS_MOV64_IMM(BPF_REG_0, 0),
		KS_EXIT(),
	};
	ks_code_t c = { 0 };
	int fd;

	if (keysize == 0 || valsize == 0 || keysize > INT32_MAX || valsize > INT32_MAX)
		return -EINVAL;
	ks_emit(&c, insns, sizeof(insns) / sizeof(insns[0]));
	fd = ks_prog_load_btf(BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER, btf_id, "dt_map_iter", &c,
			      NULL, 0);
	ks_code_free(&c);
	return fd;
}

int ks_map_iter_open(int prog_fd, int map_fd)
{
	union bpf_iter_link_info li = { .map = { .map_fd = (uint32_t)map_fd } };
	LIBBPF_OPTS(bpf_link_create_opts, o, .iter_info = &li, .iter_info_len = sizeof(li));
	int link = bpf_link_create(prog_fd, 0, BPF_TRACE_ITER, &o), fd;

	if (link < 0)
		return -errno;
	fd = bpf_iter_create(link); /* holds the link: it may go */
	fd = fd < 0 ? -errno : fd;
	close(link);
	return fd;
}
