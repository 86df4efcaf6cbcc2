#!/usr/bin/env bash
# The pid provider's two costs.  (a) Attaching: the wall time of
# `dtrace -n 'pid$target:libc.so.6::entry { @ = count(); }' -c "pid_bench 0"`
# (every function entry of libc enabled, the target run, everything
# detached), against bpftrace's `uprobe:LIBC:* { @ = count(); }` on the
# same target (once, with BENCH_BPFTRACE_ATTACH=1: it takes minutes).  (b) A hit: pid_bench N calls bench_fn() N times; the ns per
# call with no tracer, under `pid$target:a.out:bench_fn:entry { @ =
# count(); }` and under bpftrace's `uprobe:pid_bench:bench_fn { @ =
# count(); }`, both started with -c, so the loop runs attached (tracer and
# target on CPU 0, as the loop alone); a hit's
# cost is the difference from no tracer.  The variants take turns for
# ROUNDS rounds; medians and bests are printed, with the ratios, after a
# line saying what it ran on.  It builds nothing; build first:
#
#   cmake --build build --target pid_bench dtrace_cmd && sudo bench/run_pid.sh build
#
#   bench/run_pid.sh [BUILD_DIR [ROUNDS [CALLS]]]
#
# Needs root.  Without bpftrace its rows are left out.
set -euo pipefail
build=${1:-build}
rounds=${2:-5}
calls=${3:-1000000}
bin=$(realpath -m "$build/bench/pid_bench")
dtrace=$build/bin/dtrace
# shellcheck source=bench/machine.sh
. "$(dirname "$0")/machine.sh"
bench_need run_pid.sh pid_bench "$bin" "$dtrace"
libc=$(ldd "$bin" | sed -n 's/.*libc\.so\.6 => \([^ ]*\).*/\1/p')
libc=$(realpath "${libc:-/lib/x86_64-linux-gnu/libc.so.6}")
bench_header


tmp=$(mktemp -d "${TMPDIR:-/tmp}/pid_bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

nsec() { date +%s%N; }

# (a) attach: seconds for the whole command
hit_variants=(none dtrace)
if $have_bpftrace; then
	hit_variants+=(bpftrace)
fi

run_attach() {
	local t0 t1
	t0=$(nsec)
	"$dtrace" -q -n 'pid$target:libc.so.6::entry { @ = count(); }' \
		-c "$bin 0" >"$tmp/out" 2>"$tmp/err" ||
		{ echo "run_pid.sh: dtrace failed:" >&2; cat "$tmp/err" >&2; exit 1; }
	t1=$(nsec)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }' >>"$tmp/attach_$1"
}

run_hit() {
	case $1 in
	none) taskset -c 0 "$bin" "$calls" >"$tmp/out" ;;
	dtrace)
		taskset -c 0 "$dtrace" -q -n 'pid$target:a.out:bench_fn:entry { @ = count(); }
			END { printa("count %@d\n", @); }' \
			-c "$bin $calls" >"$tmp/out" 2>"$tmp/err" ;;
	bpftrace)
		taskset -c 0 bpftrace -e "uprobe:$bin:bench_fn { @ = count(); }" \
			-c "$bin $calls" >"$tmp/out" 2>"$tmp/err" ;;
	esac || { echo "run_pid.sh: $1 failed:" >&2; cat "$tmp/err" >&2; exit 1; }
	# each tracer's count at its end ("count N", bpftrace's "@: N")
	if [[ $1 != none ]] && ! grep -Eq "^(count|@:) $calls\$" "$tmp/out"; then
		echo "run_pid.sh: $1 did not count $calls hits:" >&2
		cat "$tmp/out" "$tmp/err" >&2
		exit 1
	fi
	sed -n 's/^ns\/call //p' "$tmp/out" >>"$tmp/hit_$1"
}

for _ in $(seq "$rounds"); do
	run_attach dtrace
	for v in "${hit_variants[@]}"; do
		run_hit "$v"
	done
done

stats() { # median and best of a file of numbers
	sort -g "$1" | awk '{ v[NR] = $1 } END { printf "%s %s\n", v[int((NR + 1) / 2)], v[1] }'
}

nlibc=$("$dtrace" -l -n 'pid$target:libc.so.6::entry' -c "$bin 0" 2>/dev/null | tail -n +2 | wc -l)
echo "(a) every function entry of libc enabled, target run, detached: $rounds rounds (s)"
printf '  %-58s %8s %8s\n' "" median best
read -r med best < <(stats "$tmp/attach_dtrace")
printf '  %-58s %8s %8s\n' "dtrace pid\$target:libc.so.6::entry ($nlibc probes)" "$med" "$best"
# bpftrace once (a perf event and a uprobe each, minutes): with BENCH_BPFTRACE_ATTACH=1
if $have_bpftrace && [[ ${BENCH_BPFTRACE_ATTACH:-0} == 1 ]]; then
	t0=$(nsec)
	if BPFTRACE_MAX_PROBES=20000 bpftrace -e "uprobe:$libc:* { @ = count(); }" \
		-c "$bin 0" >"$tmp/out" 2>"$tmp/err"; then
		how=ok
	else
		how="failed: $(grep -m1 '^ERROR: Error attaching' "$tmp/err" || tail -n 1 "$tmp/err")"
	fi
	t1=$(nsec)
	printf '  %-58s %8s (%s)\n' \
		"bpftrace uprobe:libc.so.6:* ($(sed -n 's/^Attaching \([0-9]*\) probes.*/\1/p' "$tmp/out") probes)" \
		"$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')" "$how"
fi
echo
echo "(b) bench_fn() in a loop, $calls calls, $rounds rounds taking turns (ns per call)"
printf '  %-58s %8s %8s %8s\n' "" median best "hit (ns)"
read -r none_med _ < <(stats "$tmp/hit_none")
for v in "${hit_variants[@]}"; do
	read -r med best < <(stats "$tmp/hit_$v")
	case $v in
	none) what="no tracer" ;;
	dtrace) what="dtrace pid\$target:a.out:bench_fn:entry, count()" ;;
	bpftrace) what="bpftrace uprobe:pid_bench:bench_fn, count()" ;;
	esac
	printf '  %-58s %8s %8s %8s\n' "$what" "$med" "$best" \
		"$(awk -v a="$med" -v b="$none_med" 'BEGIN { printf "%.1f", a - b }')"
	echo "$v $med" >>"$tmp/medians"
done
if $have_bpftrace; then
	awk -v n="$none_med" '{ m[$1] = $2 } END {
		printf "  hit cost dtrace/bpftrace: %.2fx\n", (m["dtrace"] - n) / (m["bpftrace"] - n) }' \
		"$tmp/medians"
fi
