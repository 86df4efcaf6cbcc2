/*
 * dt_pmap.c -- snapshots of /proc/PID/maps (dt_pmap.h).
 *
 * A path alone does not say which file a process mapped: a package
 * upgrade replaces libc.so.6 under the same name while old processes keep
 * the old one.  So each mapping keeps the device and inode maps gives, and
 * each executable one the build-id of the file opened by that path now
 * (a different build-id means the file was replaced since: the tables of
 * dt_unwind.c are keyed by all three).
 */
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dt_impl.h"
#include "dt_pmap.h"

size_t dt_pmap_buildid(Elf *e, uint8_t *buf)
{
	const void *id;
	ssize_t n = dwelf_elf_gnu_build_id(e, &id);

	if (n <= 0 || n > DT_BUILDID_MAX)
		return 0;
	memcpy(buf, id, (size_t)n);
	return (size_t)n;
}

bool dt_pmap_bias(Elf *e, uint64_t start, uint64_t pgoff, uint64_t *bias)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t n;

	if (elf_getphdrnum(e, &n) != 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) == NULL || ph.p_type != PT_LOAD)
			continue;
		/* the segment is mapped from its offset rounded down to a page */
		if (pgoff < ph.p_offset - ph.p_offset % (uint64_t)page ||
		    pgoff >= ph.p_offset + ph.p_filesz)
			continue;
		*bias = start - (ph.p_vaddr - ph.p_offset + pgoff);
		return true;
	}
	return false;
}

/* The build-id and bias of an executable file mapping, from the file at its path. */
static void read_file(dt_pmapping_t *m)
{
	int fd = open(m->pm_path, O_RDONLY | O_CLOEXEC);
	Elf *e;

	if (fd < 0)
		return;
	if ((e = elf_begin(fd, ELF_C_READ_MMAP, NULL)) != NULL && elf_kind(e) == ELF_K_ELF) {
		m->pm_buildidlen = (uint8_t)dt_pmap_buildid(e, m->pm_buildid);
		m->pm_hasbias = dt_pmap_bias(e, m->pm_start, m->pm_pgoff, &m->pm_bias);
	}
	elf_end(e);
	close(fd);
}

void *dt_pmap_image(pid_t pid, const dt_pmapping_t *m, size_t *size)
{
	size_t n = m->pm_end - m->pm_start;
	char path[64];
	void *buf;
	int fd;

	if (n == 0 || n > 64 << 20) /* a vDSO is a few pages */
		return NULL;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	if ((buf = malloc(n)) != NULL && pread(fd, buf, n, (off_t)m->pm_start) != (ssize_t)n) {
		free(buf);
		buf = NULL;
	}
	close(fd);
	*size = n;
	return buf;
}

/* The same for the vDSO, from its image in the process. */
static void read_vdso(pid_t pid, dt_pmapping_t *m)
{
	size_t size;
	void *image = dt_pmap_image(pid, m, &size);
	Elf *e;

	if (image == NULL)
		return;
	if ((e = elf_memory(image, size)) != NULL && elf_kind(e) == ELF_K_ELF) {
		m->pm_buildidlen = (uint8_t)dt_pmap_buildid(e, m->pm_buildid);
		m->pm_hasbias = dt_pmap_bias(e, m->pm_start, m->pm_pgoff, &m->pm_bias);
	}
	elf_end(e);
	free(image);
}

void dt_pmap_free(dt_pmap_t *pm)
{
	if (pm == NULL)
		return;
	free(pm->pp_maps);
	free(pm->pp_names);
	free(pm);
}

int dt_pmap_read(pid_t pid, dt_pmap_t **pmp)
{
	char path[64], line[PATH_MAX + 256];
	dt_pmap_t *pm;
	size_t cap = 0, nlen = 0, ncap = 0;
	FILE *fp;
	int err = 0;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if ((fp = fopen(path, "re")) == NULL)
		return -errno;
	if ((pm = calloc(1, sizeof(*pm))) == NULL) {
		fclose(fp);
		return -ENOMEM;
	}
	pm->pp_pid = pid;
	while (fgets(line, sizeof(line), fp) != NULL) {
		unsigned long long start, end, pgoff, ino;
		unsigned int major, minor;
		char perms[8], *file;
		int pos = 0;
		size_t len;

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff,
			   &major, &minor, &ino, &pos) != 7 ||
		    pos == 0)
			continue;
		file = line + pos;
		file[strcspn(file, "\n")] = '\0';
		len = strlen(file);
		if (len > 10 && strcmp(file + len - 10, " (deleted)") == 0)
			file[len -= 10] = '\0';
		if (dt_grow(&pm->pp_maps, &cap, pm->pp_nmaps, sizeof(*pm->pp_maps), 32) != 0) {
			err = -ENOMEM;
			break;
		}
		while (err == 0 && nlen + len + 1 > ncap) /* grows at least once each time */
			if (dt_grow(&pm->pp_names, &ncap, ncap, 1, 4096) != 0)
				err = -ENOMEM;
		if (err != 0)
			break;
		memcpy(pm->pp_names + nlen, file, len + 1);
		pm->pp_maps[pm->pp_nmaps++] = (dt_pmapping_t){
			.pm_start = start,
			.pm_end = end,
			.pm_pgoff = pgoff,
			.pm_dev = makedev(major, minor),
			.pm_ino = ino,
			/* an offset into pp_names until it is whole */
			.pm_path = len > 0 ? (const char *)(uintptr_t)(nlen + 1) : NULL,
			.pm_exec = perms[2] == 'x',
		};
		nlen += len + 1;
	}
	fclose(fp);
	if (err == 0 && pm->pp_nmaps == 0)
		err = -ESRCH;
	if (err != 0) {
		dt_pmap_free(pm);
		return err;
	}
	for (size_t i = 0; i < pm->pp_nmaps; i++) {
		dt_pmapping_t *m = &pm->pp_maps[i];

		if (m->pm_path == NULL)
			continue;
		m->pm_path = pm->pp_names + ((uintptr_t)m->pm_path - 1);
		if (m->pm_exec && m->pm_path[0] == '/')
			read_file(m);
		else if (m->pm_exec && strcmp(m->pm_path, "[vdso]") == 0)
			read_vdso(pid, m);
	}
	*pmp = pm;
	return 0;
}

const dt_pmapping_t *dt_pmap_find(const dt_pmap_t *pm, uint64_t addr)
{
	size_t lo = 0, hi = pm->pp_nmaps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const dt_pmapping_t *m = &pm->pp_maps[mid];

		if (addr < m->pm_start)
			hi = mid;
		else if (addr >= m->pm_end)
			lo = mid + 1;
		else
			return m;
	}
	return NULL;
}
