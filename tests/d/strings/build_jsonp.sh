#!/bin/sh
# Builds ./jsonp with our dtrace -h and -G (DTRACE is our dtrace).
set -e
"$DTRACE" -h -s jsonp.d -o jsonp.h
cc -O2 -c jsonp.c -o jsonp.o
"$DTRACE" -G -s jsonp.d -o jsonp_probes.o jsonp.o
cc -o jsonp jsonp.o jsonp_probes.o
