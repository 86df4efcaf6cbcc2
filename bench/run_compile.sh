#!/usr/bin/env bash
# Compiling a generated 1,000-clause script: in-process (the whole compile,
# front-end and code generation, then the front-end alone), through the
# dtrace command (-e: compile and stop), and bpftrace on an equivalent
# script as a peer (its --emit-elf generates code with LLVM; ours is
# hand-written BPF).  As root, also compile then go: the same script plus
# `BEGIN { exit(0); }` run to its end (link, load and attach every clause;
# seconds, nearly all in the kernel's verifier).  Then, as root, the same
# clauses on their tick probes alone (tick.d) and as many bare count()
# clauses (bare.d), and the clauses each on two probes of its own (own.d,
# 2,000 programs of one clause): the programs loaded, the verifier's processed
# instructions per program, and the median wall time of 5 runs to exit.
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
median() { # median wall time in s of $runs (default 5) runs of a command
	local r ts=()
	for ((r = 0; r < ${runs:-5}; r++)); do
		local t0 t1
		t0=$(date +%s%N)
		"$@" > /dev/null 2>&1 || { echo "failed: $*" >&2; return 1; }
		t1=$(date +%s%N)
		ts+=($(( (t1 - t0) / 1000000 )))
	done
	printf "%s\n" "${ts[@]}" | sort -n | awk '{v[NR]=$1} END {m=v[int((NR+1)/2)]; printf "%d.%03d s (min %.3f, max %.3f)", m/1000, m%1000, v[1]/1000, v[NR]/1000}'
}
# the programs a running dtrace loaded and what the verifier processed for each
# (verified_insns in /proc/PID/fdinfo): the script runs without exit until its
# count of programs stops growing for a second
verified() {
	local p n prev=-1 i
	"$build/bin/dtrace" -q -s "$1" > /dev/null 2>&1 &
	p=$!
	for ((i = 0; i < 240; i++)); do
		sleep 0.5
		n=$(grep -l '^prog_id' /proc/$p/fdinfo/* 2> /dev/null | wc -l)
		if ((n > 0 && n == prev)); then
			break
		fi
		prev=$n
	done
	grep -h '^verified_insns' /proc/$p/fdinfo/* 2> /dev/null | awk '{print $2}' | sort -n |
		awk '{v[NR]=$1; t+=$1} END {if (NR) printf "%d programs, verified instructions per program: median %d, max %d, total %d", NR, v[int((NR+1)/2)], v[NR], t}'
	kill "$p"
	wait "$p" 2> /dev/null || true
}
if [[ $(id -u) -eq 0 ]]; then
	{ cat "$tmp/gen.d"; echo 'BEGIN { exit(0); }'; } > "$tmp/gen_go.d"
	if "$build/bin/dtrace" -e -s "$tmp/gen_go.d" > /dev/null 2>&1; then
		echo "dtrace -q -s gen_go.d (compile, then go: gen.d plus BEGIN { exit(0); }): best $(runs=3 best "$build/bin/dtrace" -q -s "$tmp/gen_go.d") ms"
	else
		echo "dtrace -q -s gen_go.d: refused at compile time: $("$build/bin/dtrace" -e -s "$tmp/gen_go.d" 2>&1 | head -1 | sed 's/.*: the clauses/the clauses/')"
	fi
	# the same clauses on their tick-Ns probes alone (gen*:::work matches nothing
	# when run, and all n clauses on it are more branches than one program takes),
	# and n bare counting clauses on the same probes
	grep -v '^gen\*:::work,$' "$tmp/gen.d" > "$tmp/tick.d"
	{
		echo '#pragma D option quiet'
		for ((i = 0; i < n; i++)); do echo "tick-$((i % 60 + 1))s { @c$i = count(); }"; done
	} > "$tmp/bare.d"
	# each clause on two probes of its own, tick-(1000+i)ms and profile-(1000+i)hz:
	# 2n programs of one clause each
	python3 - "$tmp/gen.d" > "$tmp/own.d" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
k = iter(range(1001, 1000000))
print(re.sub(r'gen\*:::work\d+,\ntick-\d+s\n',
             lambda m: (lambda i: 'tick-%dms,\nprofile-%dhz\n' % (i, i))(next(k)), s), end='')
PY
	for s in tick bare own; do
		{ cat "$tmp/$s.d"; echo 'BEGIN { exit(0); }'; } > "$tmp/${s}_go.d"
		echo "$s.d, $n clauses: $(verified "$tmp/$s.d")"
		echo "dtrace -q -s ${s}_go.d (compile, load, attach, exit): median of ${runs:-5}: $(median "$build/bin/dtrace" -q -s "$tmp/${s}_go.d")"
	done
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
