/*
 * us_provider.c -- providers and probes: their lifecycle, mapping images,
 * and firing.
 *
 * Firing is lock-free: a probe holds atomic pointers to its semaphore and
 * its function, which point into the mapped image while the provider is
 * enabled and to a static zero and a static no-op otherwise.  An image is
 * never unmapped while the process lives: disabling or rebuilding first
 * repoints the probes, then atomically replaces the image's pages with a
 * "tombstone" (a mapping whose text is all `ret` and whose semaphores are
 * all zero), so that a thread which loaded an old pointer just before still
 * executes something harmless.  A tombstone costs a few pages of address
 * space per disable, and a later image of the same layout reuses them.  A
 * destroyed provider's probes go to a graveyard, from which later probes
 * reuse them after a quarantine; handles carry a generation (us_handle),
 * so that firing a destroyed probe stays safe and reported.
 */
#define _GNU_SOURCE /* mremap */
#include <errno.h>
#include <fcntl.h>
#include <libelf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "us_impl.h"

pthread_mutex_t us_lock = PTHREAD_MUTEX_INITIALIZER;
const volatile uint16_t us_zero_sema;
static usdt_provider_t *live; /* every provider not yet destroyed */
/* probes of destroyed providers, oldest first, for new probes to reuse */
static usdt_probe_t *graveyard, **grave_tail = &graveyard;

/*
 * The address ranges of retired images, for new images to reuse.  A
 * thread may still hold a pointer into a retired image (it read pb_fn or
 * pb_sema just before the provider went), so its pages are never unmapped:
 * they become a harmless copy (every function a ret).  An image of the same
 * layout with at least as many probe functions is then mapped over one
 * instead of new memory, so a process that creates and destroys providers
 * does not grow; a late caller lands on a probe function of the new image
 * (a nop and a ret, or one event of that probe if it is traced) or reads
 * one of its semaphores.  Under us_lock.
 */
typedef struct us_range {
	struct us_range *r_next;
	uint8_t *r_base;
	size_t r_len, r_text, r_sema, r_nfn;
} us_range_t;
static us_range_t *retired;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char rundir[PATH_MAX];
static char rundir_err[256];
static pid_t start_pid;		      /* the process start_time was read for */
static unsigned long long start_time; /* its start, in clock ticks */
static unsigned image_seq;	      /* numbers every image this process writes */
/*
 * The process a tracer started (dtrace -Z -c) and will hook as soon as it
 * sees libusdt mapped: $USDT_TRACED_PID, read once; 0 once the first
 * enable has waited for the hook (a forked child is another PID).
 */
static atomic_int hook_pid;

void us_nop_fn(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
	       uint64_t a6, uint64_t a7, uint64_t a8, uint64_t a9, uint64_t a10, uint64_t a11)
{
	(void)a0, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;
	(void)a6, (void)a7, (void)a8, (void)a9, (void)a10, (void)a11;
}

static const char *const errlist[] = {
	[EUSDT_BADNAME - EUSDT_BASE] = "invalid name",
	[EUSDT_TOOMANYARGS - EUSDT_BASE] = "too many arguments (at most 12)",
	[EUSDT_BADTYPE - EUSDT_BASE] = "unknown argument type",
	[EUSDT_DUPLICATE - EUSDT_BASE] = "the provider already has a probe of that name",
	[EUSDT_ENABLED - EUSDT_BASE] = "the provider is already enabled",
	[EUSDT_NOTENABLED - EUSDT_BASE] = "the provider is not enabled",
	[EUSDT_DESTROYED - EUSDT_BASE] = "the probe's provider was destroyed",
	[EUSDT_ARGCOUNT - EUSDT_BASE] = "wrong number of arguments for the probe",
	[EUSDT_ELF - EUSDT_BASE] = "cannot build the provider's ELF image",
	[EUSDT_RUNDIR - EUSDT_BASE] = "no usable private runtime directory",
	[EUSDT_BADOPTS - EUSDT_BASE] = "invalid options",
	[EUSDT_HIGHADDR - EUSDT_BASE] =
	    "the probe's memory lies above 2^48 (5-level paging): handles cannot address it",
};

const char *usdt_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err == 0)
		return "success";
	if (err >= EUSDT_BASE && err < EUSDT_MAX)
		return errlist[err - EUSDT_BASE];
	if (err < EUSDT_BASE)
		return strerror(err);
	return "unknown error";
}

static int fail(usdt_provider_t *prov, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(usdt_provider_t *prov, int err, const char *fmt, ...)
{
	va_list ap;

	prov->pv_errno = err;
	va_start(ap, fmt);
	vsnprintf(prov->pv_errmsg, sizeof(prov->pv_errmsg), fmt, ap);
	va_end(ap);
	return -err;
}

static void ok(usdt_provider_t *prov)
{
	prov->pv_errno = 0;
	prov->pv_errmsg[0] = '\0';
}

int usdt_provider_errno(const usdt_provider_t *prov)
{
	return prov != NULL ? prov->pv_errno : EINVAL;
}

const char *usdt_provider_errmsg(const usdt_provider_t *prov)
{
	if (prov == NULL)
		return "no provider";
	return prov->pv_errmsg[0] ? prov->pv_errmsg : usdt_strerror(prov->pv_errno);
}

const char *usdt_provider_path(const usdt_provider_t *prov)
{
	return prov != NULL && prov->pv_enabled ? prov->pv_image.im_path : NULL;
}

static bool valid_name(const char *s, bool module)
{
	size_t n = s != NULL ? strlen(s) : 0;

	if (n == 0 || n >= US_NAMELEN)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
		bool digit = c >= '0' && c <= '9';

		if (!(alpha || (digit && (i > 0 || module)) || (module && (c == '.' || c == '-'))))
			return false;
	}
	return !(module && (strcmp(s, ".") == 0 || strcmp(s, "..") == 0));
}

/* ---------------------------------------------------------------- images */

/* Put a harmless copy (every function a ret) over the image's pages, for good. */
static void harmless(uint8_t *base, size_t len, size_t text, size_t sema)
{
	uint8_t *t = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (t == MAP_FAILED) /* the old image stays mapped: still safe to call */
		return;
	memset(t + text, 0xc3, sema - text); /* ret */
	mprotect(t, sema, PROT_READ | PROT_EXEC);
	if (mremap(t, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, base) == MAP_FAILED)
		munmap(t, len); /* keep the old image mapped */
}

/* Retire the image: a harmless copy in its place, kept for reuse; remove its file. */
static void retire(usdt_provider_t *prov)
{
	us_image_t *im = &prov->pv_image;

	if (im->im_base != NULL) {
		us_range_t *r = malloc(sizeof(*r));

		harmless(im->im_base, im->im_len, im->im_text, im->im_sema);
		if (r != NULL) { /* without it, the range is only kept */
			*r = (us_range_t){ retired,	im->im_base, im->im_len,
					   im->im_text, im->im_sema, im->im_nfn };
			retired = r;
		}
		im->im_base = NULL;
	}
	if (im->im_path != NULL) {
		if (prov->pv_owner == getpid())
			unlink(im->im_path);
		free(im->im_path);
		im->im_path = NULL;
	}
	if (im->im_lockfd >= 0) { /* a forked child's close keeps the parent's lock */
		close(im->im_lockfd);
		im->im_lockfd = -1;
	}
}

/*
 * A retired range the image can be mapped over (taken from the list), or
 * NULL: of those of its layout with no more probe functions than it has,
 * the one with the most (so that smaller images keep theirs).
 */
static us_range_t *reusable(const us_image_t *im)
{
	us_range_t **best = NULL;

	for (us_range_t **rp = &retired; *rp != NULL; rp = &(*rp)->r_next) {
		const us_range_t *r = *rp;

		if (r->r_len == im->im_len && r->r_text == im->im_text &&
		    r->r_sema == im->im_sema && r->r_nfn <= im->im_nfn &&
		    (best == NULL || r->r_nfn > (*best)->r_nfn))
			best = rp;
	}
	if (best != NULL) {
		us_range_t *r = *best;

		*best = r->r_next;
		return r;
	}
	return NULL;
}

static void point_probes(usdt_provider_t *prov, const us_image_t *im)
{
	size_t i = 0;

	for (usdt_probe_t *pb = prov->pv_probes; pb != NULL; pb = pb->pb_next, i++) {
		if (im != NULL) {
			atomic_store(&pb->pb_fn, (us_fn_t *)(void *)(im->im_base + im->im_text +
								     i * US_FNSIZE));
			atomic_store(
			    &pb->pb_sema,
			    (const volatile uint16_t *)(im->im_base + im->im_sema + i * 2));
		} else {
			atomic_store(&pb->pb_sema, &us_zero_sema);
			atomic_store(&pb->pb_fn, us_nop_fn);
		}
	}
}

static int map_image(usdt_provider_t *prov, int fd, us_image_t *im)
{
	/* the semaphores: a private writable mapping of the file, where the
	 * kernel's uprobe ref_ctr finds and updates them */
	const struct {
		size_t off, end;
		int prot;
	} segs[3] = { { 0, US_TEXT_VADDR, PROT_READ },
		      { US_TEXT_VADDR, im->im_sema, PROT_READ | PROT_EXEC },
		      { im->im_sema, im->im_len, PROT_READ | PROT_WRITE } };
	us_range_t *reuse = reusable(im);
	uint8_t *base = reuse != NULL
			    ? reuse->r_base
			    : mmap(NULL, im->im_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (base == MAP_FAILED)
		return fail(prov, errno, "cannot reserve %zu bytes: %s", im->im_len,
			    strerror(errno));
	for (int s = 0; s < 3; s++) {
		if (mmap(base + segs[s].off, segs[s].end - segs[s].off, segs[s].prot,
			 MAP_PRIVATE | MAP_FIXED, fd, (off_t)segs[s].off) == MAP_FAILED) {
			int e = errno;
			struct statvfs vfs;

			if (reuse != NULL) { /* late callers may be in it: harmless again, kept */
				harmless(base, im->im_len, im->im_text, im->im_sema);
				reuse->r_next = retired;
				retired = reuse;
			} else {
				munmap(base, im->im_len);
			}
			if (e == EPERM && fstatvfs(fd, &vfs) == 0 && (vfs.f_flag & ST_NOEXEC))
				return fail(prov, e,
					    "cannot map %s: its file system is mounted noexec "
					    "(set USDT_RUNTIME_DIR to a directory that allows "
					    "executable mappings)",
					    im->im_path);
			return fail(prov, e, "cannot map %s: %s", im->im_path, strerror(e));
		}
	}
	free(reuse);
	im->im_base = base;
	return 0;
}

static void cleanup_at_exit(void)
{
	/* a thread stuck inside the lock must not hang exit: leave the files to reaping */
	if (pthread_mutex_trylock(&us_lock) != 0)
		return;
	for (usdt_provider_t *p = live; p != NULL; p = p->pv_next)
		if (p->pv_image.im_path != NULL && p->pv_owner == getpid())
			unlink(p->pv_image.im_path);
	pthread_mutex_unlock(&us_lock);
}

static void before_fork(void)
{
	pthread_mutex_lock(&us_lock);
}

static void after_fork(void)
{
	pthread_mutex_unlock(&us_lock);
}

/* Our start time, which names our files; read again in a forked child. */
static int self_start(unsigned long long *st)
{
	if (start_pid != getpid()) {
		if (us_proc_starttime(getpid(), &start_time) != 0)
			return -1;
		start_pid = getpid();
	}
	*st = start_time;
	return 0;
}

/*
 * Find the runtime directory (and reap what dead processes left there),
 * until found: a failure is not kept, so that an enable after the setting
 * is fixed (USDT_RUNTIME_DIR, a mkdir, a chmod) tries again.  Called with
 * us_lock held, or once before any provider exists.
 */
static int find_rundir(void)
{
	unsigned long long start;

	if (rundir[0] != '\0')
		return 0;
	if (us_rundir(rundir, sizeof(rundir), rundir_err, sizeof(rundir_err)) != 0) {
		rundir[0] = '\0';
		return -1;
	}
	if (self_start(&start) == 0) /* else build() tries again, and says why */
		us_reap(rundir, getpid(), start);
	return 0;
}

static void init_once(void)
{
	const char *traced;

	elf_version(EV_CURRENT);
	atexit(cleanup_at_exit);
	pthread_atfork(before_fork, after_fork, after_fork);
	if ((traced = getenv("USDT_TRACED_PID")) != NULL && atoi(traced) == (int)getpid())
		atomic_store(&hook_pid, (int)getpid());
	(void)find_rundir();
}

/* Build, write and map the image of every probe; then switch the probes to it. */
static int build(usdt_provider_t *prov)
{
	us_image_t im = { .im_lockfd = -1 };
	char path[PATH_MAX + 128], err[256];
	unsigned long long start;
	int fd, n;

	if (find_rundir() != 0)
		return fail(prov, EUSDT_RUNDIR, "%s", rundir_err);
	/* without it, others could not tell our files from a dead process's */
	if (self_start(&start) != 0)
		return fail(prov, errno, "cannot read this process's start time: %s",
			    strerror(errno));
	n = snprintf(path, sizeof(path), "%s/%d-%llu-%s-%s-%u.so", rundir, (int)getpid(), start,
		     prov->pv_module, prov->pv_name, image_seq++);
	if (n < 0 || (size_t)n >= sizeof(path))
		return fail(prov, ENAMETOOLONG, "image path too long");
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return fail(prov, errno, "cannot create %s: %s", path, strerror(errno));
	/* held while mapped: the reaper of another process leaves the file */
	if (flock(fd, LOCK_SH | LOCK_NB) != 0) {
		int e = errno;

		close(fd);
		unlink(path);
		return fail(prov, e, "cannot lock %s: %s", path, strerror(e));
	}
	if ((im.im_path = strdup(path)) == NULL) {
		close(fd);
		unlink(path);
		return fail(prov, ENOMEM, "out of memory");
	}
	if (us_elf_write(prov, fd, &im, err, sizeof(err)) != 0) {
		/* a full disk shows here: libelf's write failed */
		close(fd);
		unlink(path);
		free(im.im_path);
		return fail(prov, EUSDT_ELF, "cannot write %s: %s", path, err);
	}
	if (map_image(prov, fd, &im) != 0) {
		close(fd);
		unlink(path);
		free(im.im_path);
		return -prov->pv_errno;
	}
	im.im_lockfd = fd;
	/* switch: new pointers first, then retire the old image */
	point_probes(prov, &im);
	if (prov->pv_enabled)
		retire(prov);
	prov->pv_owner = getpid();
	prov->pv_image = im;
	prov->pv_enabled = true;
	return 0;
}

/* ---------------------------------------------------------------- waiting tracers */

/*
 * libusdt:::provider-enabled, our own static probe: its semaphore is
 * non-zero only while a tracer that wants the probes of providers yet to
 * come (dtrace -Z with a target) is attached to it.  A one-byte nop site
 * with a standard stapsdt note, as <sys/sdt.h> writes it; the arguments
 * sit in fixed registers so that a tracer's program needs no argument
 * parsing: arg0 (%rdi) the address of the word the tracer acknowledges
 * through, arg1 (%rsi) the provider's name, arg2 (%rdx) the image's path.
 */
__attribute__((section(".probes"), used, aligned(2),
	       visibility("hidden"))) volatile uint16_t libusdt_provider__enabled_semaphore;

static __attribute__((noinline)) void announce(volatile uint32_t *ack, const char *name,
					       const char *path)
{
	__asm__ __volatile__("990:\tnop\n"
			     ".pushsection .note.stapsdt,\"?\",\"note\"\n"
			     ".balign 4\n"
			     ".4byte 992f-991f, 994f-993f, 3\n"
			     "991:\t.asciz \"stapsdt\"\n"
			     "992:\t.balign 4\n"
			     "993:\t.8byte 990b\n"
			     ".8byte _.stapsdt.base\n"
			     ".8byte libusdt_provider__enabled_semaphore\n"
			     ".asciz \"libusdt\"\n"
			     ".asciz \"provider__enabled\"\n"
			     ".asciz \"8@%%rdi 8@%%rsi 8@%%rdx\"\n"
			     "994:\t.balign 4\n"
			     ".popsection\n"
			     ".ifndef _.stapsdt.base\n"
			     ".pushsection .stapsdt.base,\"aG\",@progbits,.stapsdt.base,comdat\n"
			     ".weak _.stapsdt.base\n"
			     ".hidden _.stapsdt.base\n"
			     "_.stapsdt.base:\n"
			     ".space 1\n"
			     ".size _.stapsdt.base, 1\n"
			     ".popsection\n"
			     ".endif\n"
			     :
			     : "D"(ack), "S"(name), "d"(path)
			     : "memory");
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * A provider just became visible (enable, or a rebuild that added
 * probes): if tracers wait for new providers, tell them, and return once
 * each has attached its matching probes and added one to *ack, or when
 * none is attached any more (a tracer that dies detaches), or after
 * US_WAIT_NS.  Without such a tracer, one load.  Called without us_lock:
 * another thread may enable meanwhile.
 */
static void wait_for_tracers(const char *name, const char *path)
{
	volatile uint32_t ack = 0;
	uint64_t deadline, again, t;
	uint16_t n;

	int pid = atomic_load_explicit(&hook_pid, memory_order_relaxed);

	/* libusdt was loaded after the tracer's last look: the hook comes at its next */
	if (pid != 0 && pid == (int)getpid() &&
	    atomic_compare_exchange_strong(&hook_pid, &pid, 0)) {
		deadline = now_ns() + US_WAIT_NS;
		while (libusdt_provider__enabled_semaphore == 0 && now_ns() < deadline)
			nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	}
	if (__builtin_expect(libusdt_provider__enabled_semaphore == 0, 1))
		return;
	announce(&ack, name, path);
	t = now_ns();
	deadline = t + US_WAIT_NS;
	again = t + US_WAIT_NS / 10;
	while ((n = libusdt_provider__enabled_semaphore) != 0 && ack < n &&
	       (t = now_ns()) < deadline) {
		/*
		 * A tracer may raise the semaphore a moment before its program is
		 * on the probe (a perf-event uprobe): what fired then is lost.  So
		 * again, now and then; a tracer answers each announcement it sees.
		 */
		if (t >= again) {
			announce(&ack, name, path);
			again = t + US_WAIT_NS / 10;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 100000 }, NULL);
	}
}

/* After build() under us_lock: what wait_for_tracers() needs, copied. */
static bool waited_for(const usdt_provider_t *prov, char *name, char *path, size_t len)
{
	if ((__builtin_expect(libusdt_provider__enabled_semaphore == 0, 1) &&
	     __builtin_expect(atomic_load_explicit(&hook_pid, memory_order_relaxed) == 0, 1)) ||
	    prov->pv_image.im_path == NULL)
		return false;
	snprintf(name, US_NAMELEN, "%s", prov->pv_name);
	snprintf(path, len, "%s", prov->pv_image.im_path);
	return true;
}

/* ---------------------------------------------------------------- API */

usdt_provider_t *usdt_provider_create(const char *name, const char *module,
				      const struct usdt_provider_opts *opts, int *errp)
{
	usdt_provider_t *prov;
	char exe[PATH_MAX] = "";
	int err = 0;

	if (!valid_name(name, false))
		err = EUSDT_BADNAME;
	else if (module != NULL && !valid_name(module, true))
		err = EUSDT_BADNAME;
	else if (opts != NULL && (opts->sz < sizeof(size_t) || opts->sz > 4096))
		err = EUSDT_BADOPTS;
	if (err == 0 && opts != NULL) {
		/* fields we do not know must be zero */
		const unsigned char *b = (const unsigned char *)opts;

		for (size_t i = sizeof(*opts); i < opts->sz; i++)
			if (b[i] != 0)
				err = EUSDT_BADOPTS;
		if (opts->sz >= offsetof(struct usdt_provider_opts, flags) + sizeof(unsigned) &&
		    (opts->flags & ~(unsigned)USDT_SITE_NOP1))
			err = EUSDT_BADOPTS;
	}
	if (err != 0) {
		if (errp != NULL)
			*errp = -err;
		return NULL;
	}
	if ((prov = calloc(1, sizeof(*prov))) == NULL) {
		if (errp != NULL)
			*errp = -ENOMEM;
		return NULL;
	}
	pthread_once(&once, init_once);
	prov->pv_image.im_lockfd = -1;
	snprintf(prov->pv_name, sizeof(prov->pv_name), "%s", name);
	if (module == NULL) {
		/* the program's name, made safe for a file name */
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		const char *base;

		exe[n > 0 ? n : 0] = '\0';
		base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
		memmove(exe, base, strlen(base) + 1);
		exe[US_NAMELEN - 1] = '\0'; /* the base name, cut to a name's length */
		for (char *p = exe; *p; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			      (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' || *p == '-'))
				*p = '_';
		module = exe[0] && valid_name(exe, true) ? exe : "a.out";
	}
	snprintf(prov->pv_module, sizeof(prov->pv_module), "%s", module);
	if (opts != NULL &&
	    opts->sz >= offsetof(struct usdt_provider_opts, flags) + sizeof(unsigned))
		prov->pv_flags = opts->flags;
	pthread_mutex_lock(&us_lock);
	prov->pv_next = live;
	live = prov;
	pthread_mutex_unlock(&us_lock);
	if (errp != NULL)
		*errp = 0;
	return prov;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * A probe that is no more (its provider destroyed, or its creation undone):
 * its handles stop matching now; its memory waits in the graveyard.  A
 * probe whose address does not leave room for the tag is never reused.
 * Under us_lock.
 */
static void bury(usdt_probe_t *pb)
{
	atomic_store(&pb->pb_dead, true);
	pb->pb_died = mono_ns();
	pb->pb_next = NULL;
	*grave_tail = pb;
	grave_tail = &pb->pb_next;
}

/*
 * The oldest buried probe, if it has been dead for the quarantine, as a
 * new probe with a new generation (a thread that read an old handle's
 * semaphore just before the burial has long finished with it); else NULL.
 * Under us_lock.
 */
static usdt_probe_t *reuse_probe(void)
{
	usdt_probe_t *pb = graveyard;

	if (pb == NULL || mono_ns() - pb->pb_died < US_QUARANTINE_NS)
		return NULL;
	if ((graveyard = pb->pb_next) == NULL)
		grave_tail = &graveyard;
	atomic_store(&pb->pb_sema, &us_zero_sema);
	atomic_store(&pb->pb_fn, us_nop_fn);
	atomic_store(&pb->pb_gen, (uint16_t)(atomic_load(&pb->pb_gen) + 1));
	memset(pb->pb_func, 0, sizeof(pb->pb_func));
	memset(pb->pb_name, 0, sizeof(pb->pb_name));
	memset(pb->pb_types, 0, sizeof(pb->pb_types));
	pb->pb_next = NULL;
	pb->pb_argc = 0;
	atomic_store(&pb->pb_dead, false);
	return pb;
}

usdt_probe_t *usdt_probe_create(usdt_provider_t *prov, const char *function, const char *name,
				int argc, const usdt_argtype_t *types)
{
	usdt_probe_t *pb, **tail;
	char note[2 * US_NAMELEN], pname[US_NAMELEN], path[PATH_MAX + 128];
	bool rebuilt;
	size_t n = 0;

	if (prov == NULL)
		return NULL;
	pthread_mutex_lock(&us_lock);
	/* the note's name: "-" is written "__", which consumers show as "-" again */
	for (const char *c = name; c != NULL && *c != '\0' && n + 2 < sizeof(note); c++) {
		if (*c == '-')
			note[n++] = '_';
		note[n++] = *c == '-' ? '_' : *c;
	}
	note[n] = '\0';
	if (function == NULL)
		function = note;
	if (name == NULL || n >= US_NAMELEN || !valid_name(function, false) ||
	    !valid_name(note, false)) {
		fail(prov, EUSDT_BADNAME, "invalid probe function or name: \"%s\", \"%s\"",
		     function ? function : "(null)", name ? name : "(null)");
		goto err;
	}
	name = note;
	if (argc < 0 || argc > USDT_MAXARGS) {
		fail(prov, EUSDT_TOOMANYARGS, "probe %s: %d arguments (0 to %d allowed)", name,
		     argc, USDT_MAXARGS);
		goto err;
	}
	if (argc > 0 && types == NULL) {
		fail(prov, EUSDT_BADTYPE, "probe %s: %d arguments but no types", name, argc);
		goto err;
	}
	for (int i = 0; i < argc; i++) {
		if (types[i] < USDT_ARG_INT8 || types[i] > USDT_ARG_DOUBLE) {
			fail(prov, EUSDT_BADTYPE, "probe %s: argument %d has unknown type %d", name,
			     i, (int)types[i]);
			goto err;
		}
	}
	for (tail = &prov->pv_probes; *tail != NULL; tail = &(*tail)->pb_next) {
		if (strcmp((*tail)->pb_name, name) == 0) {
			fail(prov, EUSDT_DUPLICATE, "provider %s already has a probe %s",
			     prov->pv_name, name);
			goto err;
		}
	}
	if ((pb = reuse_probe()) == NULL && (pb = calloc(1, sizeof(*pb))) == NULL) {
		fail(prov, ENOMEM, "out of memory");
		goto err;
	}
	/* (a reused probe was made here before, so it passed) */
	if (us_probe_addr_check(pb) != 0) {
		fail(prov, EUSDT_HIGHADDR,
		     "probe %s: its memory at %p lies above 2^48 (5-level paging), where a "
		     "handle cannot carry its generation",
		     name, (void *)pb);
		free(pb);
		goto err;
	}
	snprintf(pb->pb_func, sizeof(pb->pb_func), "%s", function);
	snprintf(pb->pb_name, sizeof(pb->pb_name), "%s", name);
	pb->pb_argc = argc;
	if (argc > 0)
		memcpy(pb->pb_types, types, sizeof(types[0]) * (size_t)argc);
	atomic_store(&pb->pb_sema, &us_zero_sema);
	atomic_store(&pb->pb_fn, us_nop_fn);
	*tail = pb;
	prov->pv_nprobes++;
	if (prov->pv_enabled && build(prov) != 0) {
		/* keep the provider as it was: the old image is still in place */
		*tail = NULL;
		prov->pv_nprobes--;
		bury(pb);
		goto err;
	}
	ok(prov);
	rebuilt = prov->pv_enabled && waited_for(prov, pname, path, sizeof(path));
	pthread_mutex_unlock(&us_lock);
	if (rebuilt) /* tracers must attach to the new image */
		wait_for_tracers(pname, path);
	return us_handle(pb);
err:
	pthread_mutex_unlock(&us_lock);
	return NULL;
}

int usdt_provider_enable(usdt_provider_t *prov)
{
	char name[US_NAMELEN], path[PATH_MAX + 128];
	bool wait = false;
	int rc;

	if (prov == NULL)
		return -EINVAL;
	pthread_mutex_lock(&us_lock);
	if (prov->pv_enabled)
		rc = fail(prov, EUSDT_ENABLED, "provider %s is already enabled", prov->pv_name);
	else if ((rc = build(prov)) == 0) {
		ok(prov);
		wait = waited_for(prov, name, path, sizeof(path));
	}
	pthread_mutex_unlock(&us_lock);
	if (wait)
		wait_for_tracers(name, path);
	return rc;
}

static void disable_locked(usdt_provider_t *prov)
{
	point_probes(prov, NULL);
	retire(prov);
	prov->pv_enabled = false;
}

int usdt_provider_disable(usdt_provider_t *prov)
{
	int rc = 0;

	if (prov == NULL)
		return -EINVAL;
	pthread_mutex_lock(&us_lock);
	if (!prov->pv_enabled) {
		rc = fail(prov, EUSDT_NOTENABLED, "provider %s is not enabled", prov->pv_name);
	} else {
		disable_locked(prov);
		ok(prov);
	}
	pthread_mutex_unlock(&us_lock);
	return rc;
}

void usdt_provider_destroy(usdt_provider_t *prov)
{
	usdt_probe_t *pb, *next;

	if (prov == NULL)
		return;
	pthread_mutex_lock(&us_lock);
	if (prov->pv_enabled)
		disable_locked(prov);
	for (usdt_provider_t **pp = &live; *pp != NULL; pp = &(*pp)->pv_next) {
		if (*pp == prov) {
			*pp = prov->pv_next;
			break;
		}
	}
	for (pb = prov->pv_probes; pb != NULL; pb = next) {
		next = pb->pb_next;
		bury(pb);
	}
	pthread_mutex_unlock(&us_lock);
	free(prov);
}

/* ---------------------------------------------------------------- firing */

int usdt_probe_is_enabled(const usdt_probe_t *h)
{
	const usdt_probe_t *pb = us_slot(h);

	if (pb == NULL || *atomic_load_explicit(&pb->pb_sema, memory_order_acquire) == 0)
		return 0;
	return us_live(h, pb);
}

const volatile uint16_t *usdt_probe_semaphore(const usdt_probe_t *h)
{
	const usdt_probe_t *pb = us_slot(h);
	const volatile uint16_t *s;

	if (pb == NULL || !us_live(h, pb))
		return NULL;
	s = atomic_load_explicit(&pb->pb_sema, memory_order_acquire);
	return s == &us_zero_sema ? NULL : s;
}

/*
 * Is the probe traced (and h its live handle)?  The semaphore first: a
 * probe not traced costs a mask, two dependent loads (the semaphore's
 * address, the semaphore) and a branch.
 */
static inline bool firing(const usdt_probe_t *h)
{
	const usdt_probe_t *pb = us_slot(h);

	return pb != NULL &&
	       __builtin_expect(*atomic_load_explicit(&pb->pb_sema, memory_order_acquire) != 0,
				0) &&
	       us_live(h, pb);
}

static inline us_fn_t *fn(const usdt_probe_t *h)
{
	return atomic_load_explicit(&us_slot(h)->pb_fn, memory_order_acquire);
}

int usdt_probe_fire(usdt_probe_t *h, int argc, const usdt_arg_t *args)
{
	usdt_probe_t *pb = us_slot(h);
	uint64_t a[USDT_MAXARGS];

	if (pb == NULL)
		return -EINVAL;
	if (!us_live(h, pb))
		return -EUSDT_DESTROYED;
	if (argc != pb->pb_argc || (argc > 0 && args == NULL))
		return -EUSDT_ARGCOUNT;
	/* live already: only the semaphore is left to read */
	if (__builtin_expect(*atomic_load_explicit(&pb->pb_sema, memory_order_acquire) == 0, 1))
		return 0;
	/* zeroed only now: a disabled fire must stay a load and a branch */
	memset(a, 0, sizeof(a));
	for (int i = 0; i < argc; i++) {
		switch (pb->pb_types[i]) {
		case USDT_ARG_POINTER: a[i] = (uint64_t)(uintptr_t)args[i].p; break;
		case USDT_ARG_STRING: a[i] = (uint64_t)(uintptr_t)args[i].s; break;
		case USDT_ARG_DOUBLE: a[i] = usdt_double_bits(args[i].d); break;
		default: /* consumers read the declared low-order bytes */ a[i] = args[i].u; break;
		}
	}
	fn(h)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]);
	return 0;
}

/*
 * The fixed-arity paths call the probe function through a pointer of the
 * narrower type: the image's functions read nothing, so passing fewer
 * arguments is what the note's specs describe.
 */
void usdt_probe_fire0(usdt_probe_t *h)
{
	if (firing(h))
		((void (*)(void))(void *)fn(h))();
}

void usdt_probe_fire1(usdt_probe_t *h, uint64_t a0)
{
	if (firing(h))
		((void (*)(uint64_t))(void *)fn(h))(a0);
}

void usdt_probe_fire2(usdt_probe_t *h, uint64_t a0, uint64_t a1)
{
	if (firing(h))
		((void (*)(uint64_t, uint64_t))(void *)fn(h))(a0, a1);
}

void usdt_probe_fire3(usdt_probe_t *h, uint64_t a0, uint64_t a1, uint64_t a2)
{
	if (firing(h))
		((void (*)(uint64_t, uint64_t, uint64_t))(void *)fn(h))(a0, a1, a2);
}

void usdt_probe_fire4(usdt_probe_t *h, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	if (firing(h))
		((void (*)(uint64_t, uint64_t, uint64_t, uint64_t))(void *)fn(h))(a0, a1, a2, a3);
}

void usdt_probe_fire5(usdt_probe_t *h, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
		      uint64_t a4)
{
	if (firing(h))
		((void (*)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t))(void *)fn(h))(
		    a0, a1, a2, a3, a4);
}

void usdt_probe_fire6(usdt_probe_t *h, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
		      uint64_t a4, uint64_t a5)
{
	if (firing(h))
		((void (*)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t))(void *)fn(
		    h))(a0, a1, a2, a3, a4, a5);
}
