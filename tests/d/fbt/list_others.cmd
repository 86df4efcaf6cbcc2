# a description that does not name fbt says nothing of it
# skipif: dtrace -l -n fbt::vfs_read:entry
# exit 1
-l -n vfs_read:entry
