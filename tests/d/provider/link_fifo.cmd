# exit 1
# setup: mkfifo fifo.o
-G -s link.d -o out.o fifo.o
