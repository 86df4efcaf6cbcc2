#!/bin/sh
# Builds ./fp_usdt (run.float_usdt.d) against the libusdt of the build
# tree that holds $DTRACE (and the sources CMake records there), with that
# build's compiler and sanitizers: an instrumented libusdt_core.a needs
# their run-time libraries at link time.
set -e
B=$(dirname "$DTRACE")/..
cache() { sed -n "s/^$1:[A-Z]*=//p" "$B/CMakeCache.txt"; }
S=$(cache CMAKE_HOME_DIRECTORY)
CC=$(cache CMAKE_C_COMPILER)
FLAGS=""
[ "$(cache DTRACE_SANITIZE)" = ON ] && FLAGS="$FLAGS -fsanitize=address,undefined"
[ "$(cache DTRACE_FUZZ)" = ON ] && FLAGS="$FLAGS -fsanitize=fuzzer-no-link"
# shellcheck disable=SC2086
"${CC:-cc}" -O2 $FLAGS -I"$S/libusdt/include" -o fp_usdt fp_usdt.c "$B/libusdt/libusdt_core.a" \
	-lelf -lpthread
