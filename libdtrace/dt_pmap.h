/*
 * dt_pmap.h -- a snapshot of a process's mappings (/proc/PID/maps) with
 * what identifies each mapped file beyond its path: device, inode and
 * GNU build-id, and the load bias of each executable mapping (run-time
 * address minus the file's link-time address).  The unwind tables
 * (dt_unwind.c) are built per file from it; the consumer will name
 * addresses with it after the process is gone.
 */
#ifndef DT_PMAP_H
#define DT_PMAP_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define DT_BUILDID_MAX 64 /* bytes; GNU build-ids are 20 (sha1) or 16 (md5, uuid) */

typedef struct dt_pmapping {
	uint64_t pm_start, pm_end; /* [start, end) in the process */
	uint64_t pm_pgoff;	   /* file offset of pm_start */
	uint64_t pm_dev, pm_ino;   /* as maps gives them (makedev(major, minor)); 0: anonymous */
	uint64_t pm_bias;	   /* executable file mappings: address - link-time address */
	const char *pm_path; /* "/usr/lib/...", "[vdso]", or NULL: anonymous (the snapshot's) */
	bool pm_exec;	     /* mapped executable */
	bool pm_hasbias;     /* pm_bias is known: the file was read and a PT_LOAD holds pm_pgoff */
	uint8_t pm_buildidlen; /* 0: the file has none, or could not be read */
	uint8_t pm_buildid[DT_BUILDID_MAX];
} dt_pmapping_t;

typedef struct dt_pmap {
	pid_t pp_pid;
	dt_pmapping_t *pp_maps; /* in address order, as maps lists them */
	size_t pp_nmaps;
	char *pp_names; /* the paths, one block */
} dt_pmap_t;

/*
 * Read the mappings of pid now: every mapping, and for the executable
 * ones of a file, the file's build-id and the mapping's bias (the file is
 * opened by its path, once per snapshot; [vdso] is read from the process's
 * memory).  0 and *pmp (free it with
 * dt_pmap_free), or a negative errno: -ENOENT no such process, -ENOMEM.
 * A process that has exited but not been reaped maps nothing: -ESRCH.
 */
int dt_pmap_read(pid_t pid, dt_pmap_t **pmp);
void dt_pmap_free(dt_pmap_t *);

/*
 * The bytes of a mapping of pid, read through /proc/PID/mem into a
 * malloc'd buffer of *size bytes (free it), or NULL.  For [vdso], an ELF
 * image with no file.
 */
void *dt_pmap_image(pid_t pid, const dt_pmapping_t *m, size_t *size);

/* The mapping that holds addr, or NULL. */
const dt_pmapping_t *dt_pmap_find(const dt_pmap_t *, uint64_t addr);

/* The GNU build-id of an ELF file into buf (at most DT_BUILDID_MAX): its length, 0 if none. */
size_t dt_pmap_buildid(Elf *, uint8_t *buf);

/*
 * The bias of a mapping of e at file offset pgoff starting at start: the
 * address of the PT_LOAD that holds pgoff, moved by where it is mapped.
 * false if no PT_LOAD holds pgoff.
 */
bool dt_pmap_bias(Elf *, uint64_t start, uint64_t pgoff, uint64_t *bias);

#endif /* DT_PMAP_H */
