#!/bin/sh
# Builds ./trigger, ./dlopener, ./across, ./usym, ./xlargs and ./libpidtest.so, and offsets.h: where work()'s ret is (from objdump, so
# that the test does not depend on what the compiler made of it).
set -e
cc -O2 -o trigger trigger.c
cc -O2 -shared -fPIC -o libpidtest.so libpidtest.c
cc -O2 -o dlopener dlopener.c -ldl
cc -O2 -o across across.c
cc -O2 -o usym usym.c
cc -O2 -o xlargs xlargs.c
objdump -d --no-show-raw-insn trigger | sed -n '/^[0-9a-f]* <work>:$/,/^$/p' > work.dis
start=$(sed -n 's/^\([0-9a-f]*\) <work>:$/\1/p' work.dis)
rets=$(sed -n 's/^ *\([0-9a-f]*\):[[:space:]]*ret.*$/\1/p' work.dis)
if [ -z "$start" ] || [ "$(echo "$rets" | wc -w)" -ne 1 ]; then
	echo "work() must have one ret: $rets" >&2
	exit 1
fi
echo "#define RETOFF $((0x$rets - 0x$start))" > offsets.h
printf "#define RETHEX %x\n" $((0x$rets - 0x$start)) >> offsets.h
