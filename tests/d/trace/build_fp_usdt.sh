#!/bin/sh
# Builds ./fp_usdt (run.float_usdt.d) against the libusdt of the build
# tree that holds $DTRACE (and the sources CMake records there).
set -e
B=$(dirname "$DTRACE")/..
S=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$B/CMakeCache.txt")
cc -O2 -I"$S/libusdt/include" -o fp_usdt fp_usdt.c "$B/libusdt/libusdt_core.a" -lelf -lpthread
