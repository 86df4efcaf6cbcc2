#!/bin/sh
# Builds ./fp_sdt (run.float_args.d) with <sys/sdt.h>, checks that gcc wrote
# its double and float arguments as "8f@" and "4f@", which the golden is
# about, and writes what printf(3) prints for the same values to
# fp_sdt.expected (the .out's printf lines were checked against it, to
# check again by hand).  Without PIE, so that print() shows the same
# address at every run.
set -e
cc -O2 -no-pie -o fp_sdt fp_sdt.c
readelf -n fp_sdt | grep -q ' 8f@' || { echo "fp_sdt: no 8f@ operand in its note" >&2; exit 1; }
readelf -n fp_sdt | grep -q ' 4f@' || { echo "fp_sdt: no 4f@ operand in its note" >&2; exit 1; }
./fp_sdt -p > fp_sdt.expected
