# exit 0
# creates: out.o
# setup: dtrace -h -s link.d -o link.h
# setup: cc -g -gz=zlib -c link_good.c -o good.o
-G -s link.d -o out.o good.o
