#!/usr/bin/env bash
# What a context switch costs while the sched provider is enabled: two
# threads on CPU 0 ping-pong a byte over pipes (sched_bench), so that
# every hand-off is a switch, with no tracer, under our dtrace with
# `sched:::on-cpu { @ = count(); }` (one program on sched_exit_tp), with
# `sched:::off-cpu { @ = count(); }` (one program on sched_switch), with
# every sched probe (`sched::: { @[probename] = count(); }`: seven programs,
# three of them on sched_switch), and under bpftrace's
# `tracepoint:sched:sched_switch { @ = count(); }`.  Every predicate is
# true: each switch runs a clause.  The variants take turns for ROUNDS
# rounds; the median and best ns per switch of each, and the ratios to no
# tracer, are printed after a line saying what it ran on.  It builds
# nothing; build first:
#
#   cmake --build build --target sched_bench dtrace_cmd && sudo bench/run_sched.sh build
#
#   bench/run_sched.sh [BUILD_DIR [ROUNDS [ROUND_TRIPS]]]
#
# Needs root.  Without bpftrace its row is left out.
set -euo pipefail
build=${1:-build}
rounds=${2:-7}
trips=${3:-200000}
bin=$build/bench/sched_bench
dtrace=$build/bin/dtrace
# shellcheck source=bench/machine.sh
. "$(dirname "$0")/machine.sh"
bench_need run_sched.sh sched_bench "$bin" "$dtrace"
bench_header

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sched_bench.XXXXXX")
bench_script=run_sched.sh
trap 'stop_tracer; rm -rf "$tmp"' EXIT

variants=(none dtrace_on dtrace_off dtrace_all)
if $have_bpftrace; then
	variants+=(bpftrace)
fi

run_variant() {
	case $1 in
	none) ;;
	dtrace_on)
		start_tracer "$dtrace" -q -n 'BEGIN { printf("ready\n"); }' \
			-n 'sched:::on-cpu { @ = count(); }' ;;
	dtrace_off)
		start_tracer "$dtrace" -q -n 'BEGIN { printf("ready\n"); }' \
			-n 'sched:::off-cpu { @ = count(); }' ;;
	dtrace_all)
		start_tracer "$dtrace" -q -n 'BEGIN { printf("ready\n"); }' \
			-n 'sched::: { @[probename] = count(); }' ;;
	bpftrace)
		start_tracer bpftrace -e 'BEGIN { printf("ready\n"); }
			tracepoint:sched:sched_switch { @ = count(); }' ;;
	esac
	"$bin" "$trips" | sed -n 's/^ns\/switch //p' >>"$tmp/$1"
	stop_tracer
}

for _ in $(seq "$rounds"); do
	for v in "${variants[@]}"; do
		run_variant "$v"
	done
done

echo "two threads on CPU 0 ping-pong over pipes, $trips round trips, $rounds rounds taking turns (ns per context switch)"
printf '  %-48s %8s %8s %8s\n' "" median best "median/none"
stats() { # median and best of a file of numbers
	sort -g "$1" | awk '{ v[NR] = $1 } END { printf "%.1f %.1f\n", v[int((NR + 1) / 2)], v[1] }'
}
read -r none_med _ < <(stats "$tmp/none")
for v in "${variants[@]}"; do
	read -r med best < <(stats "$tmp/$v")
	case $v in
	none) what="no tracer" ;;
	dtrace_on) what="dtrace sched:::on-cpu" ;;
	dtrace_off) what="dtrace sched:::off-cpu" ;;
	dtrace_all) what="dtrace sched::: (every probe)" ;;
	bpftrace) what="bpftrace tracepoint:sched:sched_switch" ;;
	esac
	printf '  %-48s %8s %8s %8s\n' "$what" "$med" "$best" \
		"$(awk -v a="$med" -v b="$none_med" 'BEGIN { printf "%.2fx", a / b }')"
done
