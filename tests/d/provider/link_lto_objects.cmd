# exit 0
# creates: out.o
# setup: dtrace -h -s link.d -o link.h
# setup: clang -flto -O2 -c link_good.c -o good_clang_lto.o
# setup: gcc -flto -O2 -c link_good.c -o good_gcc_lto.o
-G -s link.d -o out.o good_clang_lto.o good_gcc_lto.o
