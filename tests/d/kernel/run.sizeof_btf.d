/*
 * Kernel types from BTF: enumerators of a kernel enum as integer
 * constants, a kernel typedef (atomic_t), a bit-field (in_iowait, 1 bit),
 * member offsets, a kernel typedef whose name D also has with another
 * size (block_device.bd_dev: the kernel's dev_t, 4 bytes; D's, 8).  Sizes and offsets that vary between kernels are
 * compared with bpftool's by tests/integration/test_dlib.py.
 */
/* @args: -q */
BEGIN
{
	printf("%d\n", sizeof (struct task_struct) > 1000);
	printf("%d %d\n", PIDTYPE_PGID, PIDTYPE_SID);
	printf("%d\n", sizeof (atomic_t));
	printf("%d\n", curthread->in_iowait <= 1);
	printf("%d\n", offsetof(struct task_struct, tgid) > offsetof(struct task_struct, pid));
	printf("%d %d\n", sizeof (((struct block_device *)0)->bd_dev), sizeof (dev_t));
	exit(0);
}
