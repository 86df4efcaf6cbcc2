#!/usr/bin/env bash
# Start-up: dtrace from exec to exit for scripts that end at once, on this
# (busy) machine and alone in a PID namespace, where it sees no other
# process; bpftrace's `BEGIN { exit(); }` in the same run as the peer.
# Each case also runs once under strace: the system calls dtrace makes, the
# files it opens, the /proc/PID/maps it opens (other processes' mappings)
# and the bytes it reads.  Issue 19: start-up must not grow with the rest
# of the machine (busy within 1.5x of alone) unless the script can match
# what other processes hold (a USDT glob, dtrace -l).
#   bench/run_startup.sh [BUILD_DIR [runs [BASELINE_DTRACE]]]
# BASELINE_DTRACE: another dtrace (an older build) measured in the same run.
# Both sides of a comparison run through unshare (-fm --mount-proc on the
# machine, -fpm --mount-proc alone): the same fork and mount, only the
# PID namespace differs.  Times are the median of runs (default 7) in ms,
# with min-max; runs alternate between the two sides.  On a shared machine
# the ratio of the minimums is the steadier one (other load only adds).
set -euo pipefail
build=${1:-build}
runs=${2:-7}
base=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bench_script=run_startup.sh

# shellcheck source=bench/machine.sh
. "$(dirname "$0")/machine.sh"
dtrace=$(realpath "$build/bin/dtrace")
target=$(realpath "$build/bench/hit_loop")
bench_need "$bench_script" hit_loop "$dtrace" "$target"
if [[ $(id -u) -ne 0 ]] || ! command -v unshare > /dev/null; then
	echo "$bench_script: needs root and unshare (PID namespaces)" >&2
	exit 2
fi
bench_header
echo "processes on the machine: $(find /proc -maxdepth 1 -name '[0-9]*' | wc -l)"
echo

# name|dtrace arguments (one string, split by the shell as written)
cases=(
	"BEGIN|-n 'BEGIN { exit(0); }'"
	"tick|-n 'tick-1ms { exit(0); }'"
	"syscall|-n 'syscall::read:entry { } BEGIN { exit(0); }'"
	"pid\$target|-n 'pid\$target::main:entry { exit(0); }' -c '$target 1'"
	"usdt\$target|-n 'bench\$target:::two { exit(0); }' -c '$target 1'"
	"USDT glob|-Z -n '*:::probe { } BEGIN { exit(0); }'"
	"-l|-l"
)

# stats FILE: "median (min-max)" of the numbers in FILE, one a line
stats() {
	sort -n "$1" | awk '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.1f (%.1f-%.1f)", m, v[1], v[NR] }'
}
median() {
	sort -n "$1" | awk '{ v[NR] = $1 } END {
		printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ms CMD...: wall time of one run in ms (output discarded)
ms() {
	local t0 t1
	t0=$EPOCHREALTIME
	"$@" > /dev/null 2>&1 || true
	t1=$EPOCHREALTIME
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) * 1000 }'
}

# trace NAME DTRACE ARGS: one run under strace (inside the namespace
# unshare makes when NAME ends in .alone): "syscalls openat maps KB"
trace() {
	local log=$tmp/$1.strace ns=(-fm --mount-proc)
	[[ $1 == *.alone ]] && ns=(-fpm --mount-proc)
	# no -f: a -c target is dtrace's to trace (ptrace), not strace's
	eval "unshare ${ns[*]} strace -qq -o '$log' $2 $3" > /dev/null 2>&1 || true
	awk '/^[a-z_0-9]+\(/ { n++ }
	     /^openat\(/ { o++ }
	     /^openat\(.*"\/proc\/[0-9]+\/maps"/ { m++ }
	     /^(read|pread64)\(/ && $NF ~ /^[0-9]+$/ { b += $NF }
	     END { printf "%d %d %d %d", n, o, m, b / 1024 }' "$log"
}

sides=(dtrace)
[[ -n $base ]] && sides+=(base)
for c in "${cases[@]}"; do
	name=${c%%|*}
	args=${c#*|}
	key=$(echo "$name" | tr -c 'A-Za-z0-9\n' '_')
	for side in "${sides[@]}"; do
		bin=$dtrace
		[[ $side == base ]] && bin=$base
		for ((r = 0; r < runs; r++)); do
			eval "ms unshare -fm --mount-proc '$bin' $args" >> "$tmp/$key.$side.busy"
			eval "ms unshare -fpm --mount-proc '$bin' $args" >> "$tmp/$key.$side.alone"
		done
	done
done
if $have_bpftrace; then
	for ((r = 0; r < runs; r++)); do
		ms unshare -fm --mount-proc bpftrace -e 'BEGIN { exit(); }' >> "$tmp/bpftrace.busy"
		ms unshare -fpm --mount-proc bpftrace -e 'BEGIN { exit(); }' >> "$tmp/bpftrace.alone"
	done
fi

row() { # row LABEL FILEPREFIX [BIN ARGS]
	local label=$1 f=$2 busy alone ratio sc=("" "" "" "")
	busy=$(median "$f.busy")
	alone=$(median "$f.alone")
	ratio=$(awk -v a="$busy" -v b="$alone" 'BEGIN { printf "%.2f", a / b }')
	ratio="$ratio ($(awk -v a="$(sort -n "$f.busy" | head -n 1)" -v b="$(sort -n "$f.alone" | head -n 1)" \
		'BEGIN { printf "%.2f", a / b }'))"
	if [[ $# -gt 2 ]]; then
		read -r -a sc <<< "$(trace "$(basename "$f").busy" "'$3'" "$4")"
		read -r -a sa <<< "$(trace "$(basename "$f").alone" "'$3'" "$4")"
		sc[2]="${sc[2]}/${sa[2]}"
	fi
	printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n" "$label" "${sc[0]}" "${sc[1]}" \
		"${sc[2]}" "${sc[3]}" "$(stats "$f.busy")" "$(stats "$f.alone")" "$ratio"
}

echo "| case | syscalls | openat | maps opened (machine/alone) | KB read | machine ms | alone ms | machine/alone (of the mins) |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for c in "${cases[@]}"; do
	name=${c%%|*}
	args=${c#*|}
	key=$(echo "$name" | tr -c 'A-Za-z0-9\n' '_')
	row "$name" "$tmp/$key.dtrace" "$dtrace" "$args"
	[[ -n $base ]] && row "$name (baseline)" "$tmp/$key.base" "$base" "$args"
done
if $have_bpftrace; then
	row "bpftrace BEGIN { exit(); }" "$tmp/bpftrace"
fi
echo
echo "median (min-max) of $runs runs; syscalls, openat, maps and KB read (read and pread64) from one run under strace (dtrace's own calls, not its -c target's)"
