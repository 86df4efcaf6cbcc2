#!/bin/sh
# Builds ./whereami (run.whereami.d) with frame pointers, with our dtrace -h and -G.
set -e
"$DTRACE" -h -s whereami.d -o whereami.h
cc -O1 -fno-omit-frame-pointer -c whereami.c -o whereami.o
"$DTRACE" -G -s whereami.d -o whereami_probes.o whereami.o
cc -o whereami whereami.o whereami_probes.o
