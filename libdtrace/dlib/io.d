/*
 * io.d -- bufinfo_t, devinfo_t and fileinfo_t, as illumos'
 * /usr/lib/dtrace/io.d lays them out, translated from the kernel's
 * struct request (its types from BTF): the io provider's args[0], args[1]
 * and args[2] (dt_prov_io.c), all three from the request in arg0.
 *
 * Every translator takes NULL (io:::wait-start and wait-done, which
 * describe no request: Linux waits on pages and bios): numbers are 0 and
 * strings "<none>".
 *
 * bufinfo_t: b_flags is B_READ or B_WRITE (the operation's direction:
 * op_is_write, so a flush is B_READ with b_bcount 0), with B_BUSY (the
 * request is in flight) and B_ASYNC when the kernel does not count it
 * synchronous (op_is_sync: not a read, and none of REQ_SYNC, REQ_FUA,
 * REQ_PREFLUSH: background writeback).  b_bcount and b_bufsize are the
 * bytes left to transfer (at start, the request's size; at done, which
 * fires for the last part, that part's).  b_blkno and b_lblkno are the
 * request's first 512-byte sector on the disk (not the partition).
 * b_addr, b_iodone, b_resid and b_error are 0: the block layer's request
 * carries no status (done's arg1 has it, as the kernel's blk_status_t).
 * b_edev is the kernel's dev_t of the partition (or the disk) the request
 * was made for: major in bits 20 and up, minor in the 20 bits below
 * (getmajor() and getminor() take it apart).
 *
 * devinfo_t: dev_name is the disk's name ("vda"), dev_statname the
 * partition's ("vda1", or the disk's name for the whole disk),
 * dev_pathname "/dev/" and that, dev_instance the disk's first minor.
 *
 * fileinfo_t: the block layer does not know the file a request is for:
 * every string is "<none>", as illumos' when a buf has no file, fi_offset
 * is -1 and fi_oflags 0.
 */

#pragma D depends_on provider io

inline int B_BUSY = 0x0001;
#pragma D binding "1.0" B_BUSY
inline int B_DONE = 0x0002;
#pragma D binding "1.0" B_DONE
inline int B_ERROR = 0x0004;
#pragma D binding "1.0" B_ERROR
inline int B_PAGEIO = 0x0010;
#pragma D binding "1.0" B_PAGEIO
inline int B_PHYS = 0x0020;
#pragma D binding "1.0" B_PHYS
inline int B_READ = 0x0040;
#pragma D binding "1.0" B_READ
inline int B_WRITE = 0x0100;
#pragma D binding "1.0" B_WRITE
inline int B_ASYNC = 0x0400;
#pragma D binding "1.0" B_ASYNC

typedef long long offset_t;

typedef struct bufinfo {
	int b_flags;		/* buffer status */
	size_t b_bcount;	/* number of bytes */
	caddr_t b_addr;		/* buffer address */
	uint64_t b_lblkno;	/* block # on device */
	uint64_t b_blkno;	/* expanded block # on device */
	size_t b_resid;		/* # of bytes not transferred */
	size_t b_bufsize;	/* size of allocated buffer */
	caddr_t b_iodone;	/* I/O completion routine */
	int b_error;		/* expanded error field */
	dev_t b_edev;		/* extended device */
} bufinfo_t;

#pragma D binding "1.0" translator
translator bufinfo_t < struct request *R > {
	b_flags = R == NULL ? 0 :
	    ((R->cmd_flags & 1) != 0 ? B_WRITE : B_READ) | B_BUSY |
	    ((R->cmd_flags & 0xff) != REQ_OP_READ &&
	    (R->cmd_flags & (1 << __REQ_SYNC | 1 << __REQ_FUA | 1 << __REQ_PREFLUSH)) == 0 ?
	    B_ASYNC : 0);
	b_bcount = R == NULL ? 0 : R->__data_len;
	b_addr = (caddr_t)0;
	b_lblkno = R == NULL ? 0 : R->__sector;
	b_blkno = R == NULL ? 0 : R->__sector;
	b_resid = 0;
	b_bufsize = R == NULL ? 0 : R->__data_len;
	b_iodone = (caddr_t)0;
	b_error = 0;
	b_edev = R == NULL ? 0 :
	    R->part != NULL ? R->part->bd_dev :
	    R->bio != NULL ? R->bio->bi_bdev->bd_dev :
	    R->q->disk != NULL ? R->q->disk->part0->bd_dev : 0;
};

typedef struct devinfo {
	int dev_major;		/* major number */
	int dev_minor;		/* minor number */
	int dev_instance;	/* instance number */
	string dev_name;	/* name of device */
	string dev_statname;	/* name of device + instance/minor */
	string dev_pathname;	/* pathname of device */
} devinfo_t;

#pragma D binding "1.0" translator
translator devinfo_t < struct request *R > {
	dev_major = R == NULL ? 0 : getmajor(
	    R->part != NULL ? R->part->bd_dev :
	    R->bio != NULL ? R->bio->bi_bdev->bd_dev :
	    R->q->disk != NULL ? R->q->disk->part0->bd_dev : 0);
	dev_minor = R == NULL ? 0 : getminor(
	    R->part != NULL ? R->part->bd_dev :
	    R->bio != NULL ? R->bio->bi_bdev->bd_dev :
	    R->q->disk != NULL ? R->q->disk->part0->bd_dev : 0);
	dev_instance = R == NULL || R->q->disk == NULL ? 0 : R->q->disk->first_minor;
	dev_name = R == NULL || R->q->disk == NULL ? "<none>" :
	    stringof(R->q->disk->disk_name);
	dev_statname = R == NULL ? "<none>" :
	    R->part != NULL ? stringof(R->part->bd_device.kobj.name) :
	    R->bio != NULL ? stringof(R->bio->bi_bdev->bd_device.kobj.name) :
	    R->q->disk != NULL ? stringof(R->q->disk->disk_name) : "<none>";
	dev_pathname = R == NULL ? "<none>" :
	    R->part != NULL ? strjoin("/dev/", stringof(R->part->bd_device.kobj.name)) :
	    R->bio != NULL ? strjoin("/dev/", stringof(R->bio->bi_bdev->bd_device.kobj.name)) :
	    R->q->disk != NULL ? strjoin("/dev/", stringof(R->q->disk->disk_name)) : "<none>";
};

typedef struct fileinfo {
	string fi_name;		/* name (basename of fi_pathname) */
	string fi_dirname;	/* directory (dirname of fi_pathname) */
	string fi_pathname;	/* full pathname */
	offset_t fi_offset;	/* offset within file */
	string fi_fs;		/* filesystem */
	string fi_mount;	/* mount point of file system */
	int fi_oflags;		/* open(2) flags for file descriptor */
} fileinfo_t;

#pragma D binding "1.0" translator
translator fileinfo_t < struct request *R > {
	fi_name = "<none>";
	fi_dirname = "<none>";
	fi_pathname = "<none>";
	fi_offset = -1;
	fi_fs = "<none>";
	fi_mount = "<none>";
	fi_oflags = 0;
};
