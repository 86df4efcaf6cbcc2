/*
 * iotrig: the io tests' target.  Writes N blocks of SIZE bytes with
 * O_DIRECT to a new file under /var/tmp (ext4 on a block device here),
 * fsyncs it, then reads its first block back with O_DIRECT.
 *
 *   iotrig N SIZE             the whole run, on a file it removes
 *   iotrig prep PATH N SIZE   make PATH's blocks (fallocate, fsync) and
 *                             print where they are: "SECTOR NSECTORS"
 *   iotrig write PATH N SIZE  the writes, fsync and read, on PATH
 *
 * Before the I/O the whole run tells the tracer, through functions the
 * pid provider sees (noinline, in a.out), the file's device (major and
 * minor as stat(2) gives st_dev, and its name in sysfs: "vda", "vda1")
 * and where its blocks are on the disk (FIEMAP after fallocate, in
 * 512-byte sectors from the disk's start: a partition's start added), so
 * that a script counts only this file's requests, whichever thread issues
 * them.  Then phase(1): the writes (each followed by a 1 ms sleep, which
 * is no I/O wait) and fsync; phase(2): the read;
 * phase(3): done.  The blocks must be one extent (else exit 2).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

__attribute__((noinline)) void report_dev(unsigned maj, unsigned min, const char *name)
{
	__asm__ volatile("" ::"r"(maj), "r"(min), "r"(name));
}

__attribute__((noinline)) void report_extent(unsigned long long sector, unsigned long long nsect)
{
	__asm__ volatile("" ::"r"(sector), "r"(nsect));
}

__attribute__((noinline)) void phase(int n)
{
	__asm__ volatile("" ::"r"(n));
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* The sysfs name of block device dev ("vda", "vda1") in name: 0, or -1. */
static int dev_name(dev_t dev, char *name, size_t size)
{
	char path[64], target[256];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if ((n = readlink(path, target, sizeof(target) - 1)) < 0)
		return -1;
	target[n] = '\0';
	snprintf(name, size, "%s", basename(target));
	return 0;
}

/* The partition's first sector on its disk (0 for a whole disk). */
static unsigned long long part_start(dev_t dev)
{
	char path[64];
	unsigned long long start = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/start", major(dev), minor(dev));
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	if (fscanf(f, "%llu", &start) != 1)
		start = 0;
	fclose(f);
	return start;
}

/* Give fd's n blocks of size bytes their place on the disk: *sector, *nsect. */
static void prepare(int fd, int n, size_t size, unsigned long long *sector,
		    unsigned long long *nsect)
{
	struct stat st;
	struct {
		struct fiemap fm;
		struct fiemap_extent ext[8];
	} fm;

	if (fallocate(fd, 0, 0, (off_t)size * n) != 0 || fsync(fd) != 0)
		die("fallocate");
	if (fstat(fd, &st) != 0)
		die("fstat");
	memset(&fm, 0, sizeof(fm));
	fm.fm.fm_length = FIEMAP_MAX_OFFSET;
	fm.fm.fm_flags = FIEMAP_FLAG_SYNC;
	fm.fm.fm_extent_count = 8;
	if (ioctl(fd, FS_IOC_FIEMAP, &fm) != 0)
		die("FS_IOC_FIEMAP");
	if (fm.fm.fm_mapped_extents != 1) {
		fprintf(stderr, "iotrig: the file is in %u extents, not one\n",
			fm.fm.fm_mapped_extents);
		exit(2);
	}
	*sector = part_start(st.st_dev) + fm.ext[0].fe_physical / 512;
	*nsect = fm.ext[0].fe_length / 512;
}

static void run(int fd, int n, size_t size)
{
	void *buf;

	if (posix_memalign(&buf, 4096, size) != 0)
		die("posix_memalign");
	memset(buf, 'x', size);
	phase(1);
	for (int i = 0; i < n; i++) {
		if (pwrite(fd, buf, size, (off_t)size * i) != (ssize_t)size)
			die("pwrite");
		usleep(1000); /* a sleep that is no I/O wait */
	}
	if (fsync(fd) != 0)
		die("fsync");
	phase(2);
	if (pread(fd, buf, size, 0) != (ssize_t)size)
		die("pread");
	phase(3);
	free(buf);
}

int main(int argc, char **argv)
{
	unsigned long long sector, nsect;
	char path[64], name[64];
	struct stat st;
	int fd;

	if (argc == 5 && (strcmp(argv[1], "prep") == 0 || strcmp(argv[1], "write") == 0)) {
		bool prep = strcmp(argv[1], "prep") == 0;

		if ((fd = open(argv[2], O_RDWR | O_DIRECT | (prep ? O_CREAT | O_TRUNC : 0), 0600)) <
		    0)
			die("open");
		if (prep) {
			prepare(fd, atoi(argv[3]), (size_t)atol(argv[4]), &sector, &nsect);
			printf("%llu %llu\n", sector, nsect);
		} else {
			run(fd, atoi(argv[3]), (size_t)atol(argv[4]));
		}
		close(fd);
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: iotrig N SIZE | prep|write PATH N SIZE\n");
		return 1;
	}
	snprintf(path, sizeof(path), "/var/tmp/dtrace-io.%d", (int)getpid());
	if ((fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_DIRECT, 0600)) < 0)
		die("open");
	unlink(path); /* its blocks are freed (and discarded) at close */
	prepare(fd, atoi(argv[1]), (size_t)atol(argv[2]), &sector, &nsect);
	if (fstat(fd, &st) != 0 || dev_name(st.st_dev, name, sizeof(name)) != 0)
		die("the file's device");
	report_dev(major(st.st_dev), minor(st.st_dev), name);
	report_extent(sector, nsect);
	run(fd, atoi(argv[1]), (size_t)atol(argv[2]));
	close(fd);
	return 0;
}
