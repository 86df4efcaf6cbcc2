#!/bin/sh
# Builds ./fp_sdt (run.float_args.d) with <sys/sdt.h>, checks that gcc wrote
# its double and float arguments as "8f@" and "4f@", which the golden is
# about, and that the expected output is what printf(3) prints.
set -e
cc -O2 -o fp_sdt fp_sdt.c
readelf -n fp_sdt | grep -q ' 8f@' || { echo "fp_sdt: no 8f@ operand in its note" >&2; exit 1; }
readelf -n fp_sdt | grep -q ' 4f@' || { echo "fp_sdt: no 4f@ operand in its note" >&2; exit 1; }
./fp_sdt -p > fp_sdt.expected
