#!/usr/bin/env bash
# The D front-end on a generated 1,000-clause script: in-process, through
# the dtrace command (-e: compile and stop), and bpftrace on an equivalent
# script as a peer (its --emit-elf also generates code with LLVM, which our
# -e does not do yet: read it as context, not as a like-for-like ratio).
#   bench/run_compile.sh BUILD_DIR [clauses]
set -euo pipefail
build=${1:-build}
n=${2:-1000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=bench/machine.sh
. "$(dirname "$0")/machine.sh"
bench_machine
"$build/bench/compile_bench" "$n" 10
"$build/bench/compile_bench" --emit "$n" > "$tmp/gen.d"

best() { # best wall time in ms of 5 runs of a command
	local b=999999999
	for _ in 1 2 3 4 5; do
		local t0 t1
		t0=$(date +%s%N)
		"$@" > /dev/null 2>&1 || { echo "failed: $*" >&2; return 1; }
		t1=$(date +%s%N)
		(( (t1 - t0) / 1000 < b )) && b=$(( (t1 - t0) / 1000 ))
	done
	printf "%d.%03d" $((b / 1000)) $((b % 1000))
}
echo "dtrace -e -s gen.d (whole command, $n clauses): best $(best "$build/bin/dtrace" -e -s "$tmp/gen.d") ms"

if command -v bpftrace > /dev/null; then
	python3 - "$n" > "$tmp/gen.bt" <<'PY'
import sys
n = int(sys.argv[1])
for i in range(n):
    print('interval:s:%d /pid > %d/ { @t%d[tid] = nsecs; @last[pid, %d] = %d; '
          '@c%d[comm, %d] = count(); @q%d = hist(%d); printf("%%s %%d %d\\n", comm, pid); }'
          % (i % 60 + 1, i, i, i, i, i, i % 16, i, i, i))
PY
	echo "bpftrace --emit-elf (parse, check and LLVM codegen, $n probes): best $(best bpftrace --emit-elf "$tmp/gen.elf" "$tmp/gen.bt") ms"
fi
