# exit 1
# An object fuzz_elf made: a relocation section's target is a SHT_NULL
# section flagged compressed with an offset far past the end (dtrace -G
# crashed on it, reading the compression header of a section it had not
# placed).
-G -s link.d -o out.o link_fuzz_compressed.o
