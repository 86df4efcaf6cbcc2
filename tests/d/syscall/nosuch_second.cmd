# exit 1
-n syscall::nosuch:return -n syscall::openat:entry
