#!/bin/sh
# Builds ./addrs with our dtrace -h and -G (DTRACE is our dtrace).
set -e
"$DTRACE" -h -s addrs.d -o addrs.h
cc -O2 -c addrs.c -o addrs.o
"$DTRACE" -G -s addrs.d -o addrs_probes.o addrs.o
cc -o addrs addrs.o addrs_probes.o
