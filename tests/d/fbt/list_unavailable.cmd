# fbt where the kernel refuses fentry programs (this machine: a BPF LSM
# policy, EPERM): dtrace -l -P fbt says why in one line and fails.  Where
# fentry works, run.vfs_read.d runs instead.
# skipif: dtrace -l -n fbt::vfs_read:entry
# exit 1
-l -P fbt
