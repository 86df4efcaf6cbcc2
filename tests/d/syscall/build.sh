#!/bin/sh
# Builds ./opener, the syscall goldens' target, and its data file.
set -e
cc -O2 -o opener opener.c
printf 'abcdef\n' > data.txt
cc -O2 -o int80 int80.c
cc -O2 -o calls calls.c
