# exit 0
# creates: out.o
# setup: dtrace -h -s link.d -o link.h
# setup: cc -c link_good.c -o link_good.o
# setup: cc -c link_good.c -o link_good2.o
# the rule systemtap and Solaris makefiles use: -o after the objects
-G -s link.d link_good.o link_good2.o -o out.o
