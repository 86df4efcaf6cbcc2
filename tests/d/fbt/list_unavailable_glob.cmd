# a provider glob that names fbt, and a description that names a function
# skipif: dtrace -l -n fbt::vfs_read:entry
# exit 1
-l -n fb?:vmlinux:vfs_read:entry
