#!/bin/sh
# Builds ./ripargs (run.rip_operands.d) and checks that gcc wrote a probe
# argument as a symbol relative to %rip, which is what the golden is about.
set -e
cc -O2 -o ripargs ripargs.c
readelf -n ripargs | grep -q 'counter(%rip)' || { echo "ripargs: no %rip operand in its note" >&2; exit 1; }
