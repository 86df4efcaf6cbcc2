# exit 1
# setup: dtrace -h -s link.d -o link.h
# setup: cc -c link_good.c -o good.o
# setup: ar rc good.a good.o
-G -s link.d -o out.o good.a
