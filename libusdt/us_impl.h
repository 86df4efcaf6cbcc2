/*
 * us_impl.h -- libusdt internals.
 */
#ifndef US_IMPL_H
#define US_IMPL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "usdt.h"

#define US_NAMELEN	 64 /* names, incl. NUL */
#define US_PAGE		 4096
#define US_FNSIZE	 16    /* bytes per probe function */
#define US_BUILDID_VADDR 0x400 /* .note.gnu.build-id, in the first page */
#define US_BASE_VADDR	 0x800 /* _.stapsdt.base, in the first page */
#define US_TEXT_VADDR	 0x1000
#define US_WAIT_NS	 1000000000ULL /* the longest enable() waits for tracers */

/* Every probe function has this type; it ignores the arguments it lacks. */
typedef void us_fn_t(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
		     uint64_t, uint64_t, uint64_t, uint64_t);

struct usdt_probe {
	/* read by fire and is_enabled without a lock */
	_Atomic(const volatile uint16_t *) pb_sema; /* in the image, or us_zero_sema */
	_Atomic(us_fn_t *) pb_fn;		    /* in the image, or us_nop_fn */
	atomic_bool pb_dead;			    /* provider destroyed */
	_Atomic uint16_t pb_gen;		    /* the tag of its live handle (us_handle) */
	/* under us_lock */
	struct usdt_probe *pb_next;
	uint64_t pb_died; /* in the graveyard: when (CLOCK_MONOTONIC ns) */
	char pb_func[US_NAMELEN];
	char pb_name[US_NAMELEN];
	int pb_argc;
	usdt_argtype_t pb_types[USDT_MAXARGS];
};

/*
 * A probe handle is the probe's address with its generation in bits 48-63
 * (user addresses on x86-64 and arm64 fit in 48 bits with 4-level paging;
 * with 5-level paging (LA57) memory may lie above, and a probe there is
 * refused: us_probe_addr_check).  The memory of a destroyed
 * provider's probe is reused by a later probe once US_QUARANTINE_NS have
 * passed, with the generation raised, so an old handle no longer matches:
 * firing it does nothing and usdt_probe_fire() returns -EUSDT_DESTROYED.
 */
#define US_TAG_SHIFT	 48
#define US_QUARANTINE_NS 2000000000ULL

static inline usdt_probe_t *us_slot(const usdt_probe_t *h)
{
	return (usdt_probe_t *)((uintptr_t)h & ((1ULL << US_TAG_SHIFT) - 1));
}

/* 0 if probe memory at pb can carry a handle's generation, else EUSDT_HIGHADDR. */
static inline int us_probe_addr_check(const usdt_probe_t *pb)
{
	return ((uintptr_t)pb >> US_TAG_SHIFT) == 0 ? 0 : EUSDT_HIGHADDR;
}

/* Does handle h name its slot's live probe (not a destroyed one)? */
static inline bool us_live(const usdt_probe_t *h, const usdt_probe_t *pb)
{
	return (uint16_t)((uintptr_t)h >> US_TAG_SHIFT) ==
		   atomic_load_explicit(&pb->pb_gen, memory_order_acquire) &&
	       !atomic_load_explicit(&pb->pb_dead, memory_order_acquire);
}

static inline usdt_probe_t *us_handle(usdt_probe_t *pb)
{
	return (usdt_probe_t *)((uintptr_t)pb |
				((uintptr_t)atomic_load(&pb->pb_gen) << US_TAG_SHIFT));
}

/* A mapped image: one reservation with three segments of the file. */
typedef struct us_image {
	char *im_path;	  /* malloc'd; NULL once removed */
	int im_lockfd;	  /* holds a shared flock on the file while mapped; -1: none */
	uint8_t *im_base; /* where vaddr 0 is mapped */
	size_t im_len;	  /* bytes reserved */
	size_t im_text;	  /* vaddr of .text (US_TEXT_VADDR) */
	size_t im_sema;	  /* vaddr of .probes */
	size_t im_nfn;	  /* probe functions in .text */
} us_image_t;

struct usdt_provider {
	struct usdt_provider *pv_next; /* all live providers, for exit cleanup */
	char pv_name[US_NAMELEN];
	char pv_module[US_NAMELEN];
	unsigned pv_flags;
	usdt_probe_t *pv_probes;
	int pv_nprobes;
	bool pv_enabled;
	pid_t pv_owner; /* the process that wrote the image file */
	us_image_t pv_image;
	int pv_errno;
	char pv_errmsg[256];
};

extern pthread_mutex_t us_lock;
extern const volatile uint16_t us_zero_sema;
void us_nop_fn(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t,
	       uint64_t, uint64_t, uint64_t, uint64_t);

/* us_elf.c: write the image of prov's probes to fd; layout into *im. */
int us_elf_write(const usdt_provider_t *prov, int fd, us_image_t *im, char *err, size_t errlen);
/* The argument specification of probe argument i of the given type. */
void us_arg_spec(usdt_argtype_t t, int i, char *buf, size_t len);

/* us_rundir.c: the private runtime directory, exit cleanup, reaping. */
int us_rundir(char *buf, size_t len, char *err, size_t errlen);
int us_proc_starttime(pid_t pid, unsigned long long *st);
/* Remove the unlocked files of dead processes, and self's own (an exec's leftovers). */
void us_reap(const char *dir, pid_t self, unsigned long long self_start);

#endif /* US_IMPL_H */
