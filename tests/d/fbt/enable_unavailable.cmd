# enabling an fbt probe fails with the reason, at compile (exec) time
# skipif: dtrace -l -n fbt::vfs_read:entry
# exit 1
-n fbt::vfs_read:entry
