# a provider glob that names every provider names none of them: no reason
# skipif: dtrace -l -n fbt::vfs_read:entry
# exit 1
-l -n *:::vfs_read
