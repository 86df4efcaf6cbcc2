# exit 0
# creates: out.o
# setup: cc -c thirdparty.s -o thirdparty.o
-G -s link.d -o out.o thirdparty.o
