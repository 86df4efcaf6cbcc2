#!/bin/sh
# Builds ./flow with our dtrace -h and -G (DTRACE is our dtrace).
set -e
"$DTRACE" -h -s flow.d -o flow.h
cc -O0 -c flow.c -o flow.o
"$DTRACE" -G -s flow.d -o flow_probes.o flow.o
cc -o flow flow.o flow_probes.o
