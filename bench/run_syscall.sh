#!/usr/bin/env bash
# What a system call costs while the syscall provider is enabled: getppid()
# in a tight loop (syscall_bench) with no tracer, under our dtrace with
# `syscall:::entry /pid == 1/` (every probe enabled, its predicate never
# true: the guard, the table and the prologue on each call of every
# process), with `syscall::getppid:entry /pid == 1/` (one probe, the one
# called), with `syscall::openat:entry /pid == 1/` (one probe, another
# call: getppid stops at the group's table), and under bpftrace's
# `tracepoint:raw_syscalls:sys_enter /pid == 1/` (one program on the same
# tracepoint).  The variants take turns for ROUNDS rounds; the median and
# best ns per call of each, and the ratios to no tracer, are printed after
# a line saying what it ran on.  It builds nothing; build first:
#
#   cmake --build build --target syscall_bench dtrace_cmd && sudo bench/run_syscall.sh build
#
#   bench/run_syscall.sh [BUILD_DIR [ROUNDS [CALLS]]]
#
# Needs root.  Without bpftrace its row is left out.
set -euo pipefail
build=${1:-build}
rounds=${2:-7}
calls=${3:-2000000}
bin=$build/bench/syscall_bench
dtrace=$build/bin/dtrace
# shellcheck source=bench/machine.sh
. "$(dirname "$0")/machine.sh"
bench_need run_syscall.sh syscall_bench "$bin" "$dtrace"
bench_header


tmp=$(mktemp -d "${TMPDIR:-/tmp}/syscall_bench.XXXXXX")
bench_script=run_syscall.sh
trap 'stop_tracer; rm -rf "$tmp"' EXIT

variants=(none dtrace_all dtrace_one dtrace_other)
if $have_bpftrace; then
	variants+=(bpftrace)
fi

run_variant() {
	case $1 in
	none) ;;
	dtrace_all)
		start_tracer "$dtrace" -q -n 'BEGIN { printf("ready\n"); }' \
			-n 'syscall:::entry /pid == 1/ { @ = count(); }' ;;
	dtrace_one)
		start_tracer "$dtrace" -q -n 'BEGIN { printf("ready\n"); }' \
			-n 'syscall::getppid:entry /pid == 1/ { @ = count(); }' ;;
	dtrace_other)
		start_tracer "$dtrace" -q -n 'BEGIN { printf("ready\n"); }' \
			-n 'syscall::openat:entry /pid == 1/ { @ = count(); }' ;;
	bpftrace)
		start_tracer bpftrace -e 'BEGIN { printf("ready\n"); }
			tracepoint:raw_syscalls:sys_enter /pid == 1/ { @ = count(); }' ;;
	esac
	taskset -c 0 "$bin" "$calls" | sed -n 's/^ns\/call //p' >>"$tmp/$1"
	stop_tracer
}

for _ in $(seq "$rounds"); do
	for v in "${variants[@]}"; do
		run_variant "$v"
	done
done

echo "getppid() in a loop, $calls calls, $rounds rounds taking turns (ns per call)"
printf '  %-48s %8s %8s %8s\n' "" median best "median/none"
stats() { # median and best of a file of numbers
	sort -g "$1" | awk '{ v[NR] = $1 } END { printf "%.1f %.1f\n", v[int((NR + 1) / 2)], v[1] }'
}
read -r none_med _ < <(stats "$tmp/none")
for v in "${variants[@]}"; do
	read -r med best < <(stats "$tmp/$v")
	case $v in
	none) what="no tracer" ;;
	dtrace_all) what="dtrace syscall:::entry /pid == 1/" ;;
	dtrace_one) what="dtrace syscall::getppid:entry /pid == 1/" ;;
	dtrace_other) what="dtrace syscall::openat:entry /pid == 1/" ;;
	bpftrace) what="bpftrace raw_syscalls:sys_enter /pid == 1/" ;;
	esac
	printf '  %-48s %8s %8s %8s\n' "$what" "$med" "$best" \
		"$(awk -v a="$med" -v b="$none_med" 'BEGIN { printf "%.2fx", a / b }')"
done
