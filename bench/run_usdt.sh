#!/usr/bin/env bash
# Run the libusdt benchmark, after a line saying what it ran on: first its
# table with no tracer, then its table under bpftrace, followed by
# bpftrace's own count of each probe, so that a reader sees that every
# fire was traced.  It builds nothing; build first:
#
#   cmake --build build --target usdt_bench && bench/run_usdt.sh build
#
#   bench/run_usdt.sh [BUILD_DIR]
#
# BUILD_DIR defaults to build.  The part under a tracer needs root and
# bpftrace; without them it is skipped with a note.  Other counts: run
# BUILD_DIR/bench/usdt_bench directly (see its --help).  See
# bench/README.md for what each row measures.
set -euo pipefail
build=${1:-build}
bin=$build/bench/usdt_bench
if [[ ! -x $bin ]]; then
	echo "run_usdt.sh: no $bin; build it first:" >&2
	echo "  cmake --build $build --target usdt_bench" >&2
	exit 2
fi

# shellcheck source=bench/machine.sh
. "$(dirname "$0")/machine.sh"
bench_machine
if command -v bpftrace >/dev/null; then
	echo "tracer: $(bpftrace --version)"
fi
echo

# bpftrace names the binary in its probes: it needs the full path
bin=$(realpath "$bin")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/usdt_bench.XXXXXX")
bench_pid=""
bt_pid=""
# Only our own two children, by pid; then the files.
cleanup() {
	if [[ -n $bench_pid ]]; then
		kill "$bench_pid" 2>/dev/null || true
	fi
	if [[ -n $bt_pid ]]; then
		kill -INT "$bt_pid" 2>/dev/null || true
	fi
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

# A fresh private runtime directory (mktemp made $tmp 0700 too): the
# images of this script's runs alone, removed with it.
mkdir -m 0700 "$tmp/run"
rundir=$tmp/run

USDT_RUNTIME_DIR=$rundir "$bin"
echo

if [[ $(id -u) -ne 0 ]] || ! command -v bpftrace >/dev/null; then
	echo "under a tracer: skipped (it needs root and bpftrace)"
	exit 0
fi
# bpftrace 0.17 detaches uprobes through tracefs
if [[ ! -e /sys/kernel/tracing/uprobe_events ]]; then
	mount -t tracefs nodev /sys/kernel/tracing
fi

USDT_RUNTIME_DIR=$rundir "$bin" enabled >"$tmp/bench.out" 2>"$tmp/bench.err" &
bench_pid=$!

# It prints its two image paths before it waits for the tracer.
for ((i = 0; i < 100; i++)); do
	if (($(grep -c '^path ' "$tmp/bench.out") >= 2)); then
		break
	fi
	if ! kill -0 "$bench_pid" 2>/dev/null; then
		break
	fi
	sleep 0.1
done
nop5=$(sed -n 's/^path nop5 //p' "$tmp/bench.out")
nop1=$(sed -n 's/^path nop1 //p' "$tmp/bench.out")
if [[ -z $nop5 || -z $nop1 ]]; then
	echo "run_usdt.sh: usdt_bench enabled printed no image paths:" >&2
	cat "$tmp/bench.err" >&2
	exit 1
fi

bpftrace -e "
usdt:$nop5:ub:two { @usdt_nop5 = count(); }
usdt:$nop1:ub:two { @usdt_nop1 = count(); }
usdt:$bin:bench:two { @static = count(); }
" >"$tmp/bt.out" 2>"$tmp/bt.err" &
bt_pid=$!

# The bench waits (30 s at most) for every probe to be enabled, fires, and
# exits; bpftrace exits first only if it failed.  (wait -p: bash 5.1.)
rc=0
wait -n -p first "$bench_pid" "$bt_pid" || rc=$?
if [[ $first == "$bt_pid" ]]; then
	bt_pid=""
	echo "run_usdt.sh: bpftrace exited ($rc) before the bench was done:" >&2
	grep -v RLIMIT_MEMLOCK "$tmp/bt.err" >&2 || true
	exit 1
fi
bench_pid=""
# The counts live in the kernel's maps: bpftrace prints them when it stops.
kill -INT "$bt_pid"
wait "$bt_pid" || true
bt_pid=""

grep -v '^path ' "$tmp/bench.out"
if ((rc != 0)); then
	echo "run_usdt.sh: usdt_bench enabled failed ($rc):" >&2
	cat "$tmp/bench.err" >&2
	exit 1
fi
if grep -qv RLIMIT_MEMLOCK "$tmp/bt.err"; then
	grep -v RLIMIT_MEMLOCK "$tmp/bt.err" >&2
fi

fired=$(sed -n 's/^fires per probe, warm-up included: //p' "$tmp/bench.out")
echo
echo "bpftrace's counts (the bench fired each probe $fired times):"
missed=""
for map in usdt_nop5 usdt_nop1 static; do
	n=$(sed -n "s/^@$map: //p" "$tmp/bt.out")
	printf '  @%-10s %s\n' "$map" "${n:-none}"
	if [[ $n != "$fired" ]]; then
		missed+=" @$map"
	fi
done
if [[ -z $missed ]]; then
	echo "every fire was traced"
else
	echo "not every fire was traced:$missed"
fi
