#!/bin/sh
# Builds ./trigger with our dtrace -h and -G (DTRACE is our dtrace).
set -e
"$DTRACE" -h -s trigger.d -o trigger.h
cc -O2 -c trigger.c -o trigger.o
"$DTRACE" -G -s trigger.d -o trigger_probes.o trigger.o
cc -o trigger trigger.o trigger_probes.o
# ./ripargs: probe arguments that are symbols relative to %rip (run.rip_operands.d)
cc -O2 -o ripargs ripargs.c
readelf -n ripargs | grep -q 'counter(%rip)' || { echo "ripargs: no %rip operand in its note" >&2; exit 1; }
