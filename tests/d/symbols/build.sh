#!/bin/sh
# Builds the programs of the symbols goldens:
#   cxx       C++ (run.demangle.d)
#   debugged  with its .symtab (run.debugfile.d's reference)
#   linked    stripped, its .symtab in linked.debug by .gnu_debuglink
#   badcrc    the same, but badcrc.debug changed after: its CRC is wrong
#   mini      stripped, its .symtab xz-compressed in .gnu_debugdata
#             (MiniDebugInfo, as Fedora builds it)
#   bare      stripped, no debug file at all
#   execer    execs execed (run.exec.d)
#   plt       calls through its PLT, looks up the vDSO (run.plt.d)
set -e
c++ -O2 -o cxx cxx.cc
cc -O2 -g -no-pie -o debugged debugged.c
for f in linked badcrc mini bare; do
	cp debugged $f
done
for f in linked badcrc; do
	objcopy --only-keep-debug $f $f.debug
	objcopy --strip-all --add-gnu-debuglink=$f.debug $f
done
printf x >> badcrc.debug
# MiniDebugInfo: the symbols alone (no DWARF), xz-compressed, in a section
objcopy --only-keep-debug mini mini.full
objcopy --strip-debug --remove-section=.gdb_index --remove-section=.comment mini.full
xz -f mini.full
objcopy --strip-all --add-section .gnu_debugdata=mini.full.xz mini
objcopy --strip-all bare

cc -O2 -no-pie -o execer execer.c
cc -O2 -no-pie -o execed execed.c
# plt: non-PIC and non-PIE, so that a function's address is its PLT entry
cc -O2 -fno-pic -no-pie -o plt plt.c
