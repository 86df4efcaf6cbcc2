# exit 1
# setup: cc -c link_bad_note.s -o bad_note.o
# setup: truncate -s -1 bad_note.o
-G -s link.d -o out.o bad_note.o
