# memcpy is an IFUNC: its probes are on the implementation the target chose,
# which is decoded: 4 is inside an instruction, found by dtrace -e
# exit 1
# setup: ./build.sh
-e -xerrtags -n pid$target:libc.so.6:memcpy:4 -c ./trigger
