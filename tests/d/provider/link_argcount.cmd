# exit 1
# setup: dtrace -h -s link_stale.d -o link_stale.h
# setup: cc -c link_user.c -o link_user.o
-G -s link.d -o out.o link_user.o
