#!/bin/sh
# Builds ./trigger with our dtrace -h and -G (DTRACE is our dtrace).
set -e
"$DTRACE" -h -s trigger.d -o trigger.h
cc -O2 -c trigger.c -o trigger.o
"$DTRACE" -G -s trigger.d -o trigger_probes.o trigger.o
cc -o trigger trigger.o trigger_probes.o
