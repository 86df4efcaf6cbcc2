#!/usr/bin/env bash
# Compiling a generated 1,000-clause script: in-process (the whole compile,
# front-end and code generation, then the front-end alone), through the
# dtrace command (-e: compile and stop), and bpftrace on an equivalent
# script as a peer (its --emit-elf generates code with LLVM; ours is
# hand-written BPF).  As root, also compile then go: the same script plus
# `BEGIN { exit(0); }` run to its end (link, load and attach every clause;
# seconds, nearly all in the kernel's verifier).
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
"$build/bench/compile_bench" --front-end "$n" 10
"$build/bench/compile_bench" --emit "$n" > "$tmp/gen.d"

best() { # best wall time in ms of $runs (default 5) runs of a command
	local b=999999999 r
	for ((r = 0; r < ${runs:-5}; r++)); do
		local t0 t1
		t0=$(date +%s%N)
		"$@" > /dev/null 2>&1 || { echo "failed: $*" >&2; return 1; }
		t1=$(date +%s%N)
		(( (t1 - t0) / 1000 < b )) && b=$(( (t1 - t0) / 1000 ))
	done
	printf "%d.%03d" $((b / 1000)) $((b % 1000))
}
echo "dtrace -e -s gen.d (whole command, $n clauses): best $(best "$build/bin/dtrace" -e -s "$tmp/gen.d") ms"
if [[ $(id -u) -eq 0 ]]; then
	{ cat "$tmp/gen.d"; echo 'BEGIN { exit(0); }'; } > "$tmp/gen_go.d"
	echo "dtrace -q -s gen_go.d (compile, then go: gen.d plus BEGIN { exit(0); }): best $(runs=3 best "$build/bin/dtrace" -q -s "$tmp/gen_go.d") ms"
fi

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
