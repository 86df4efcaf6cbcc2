# exit 0
# creates: out.o
# setup: dtrace -h -s link.d -o link.h
# setup: cc -c link_good.c -o link_good.o
-G -s link.d -o out.o link_good.o
