# exit 1
-n syscall::nosuch:entry
