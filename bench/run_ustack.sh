#!/usr/bin/env bash
# The cost of a user stack in an aggregation key, at two depths.
# ustack_bench N D calls down() N times, which recurses D deep and calls
# ustack_leaf() (built -O2 -fomit-frame-pointer: no frame pointers, so
# only the unwind tables walk it; the stack at the leaf is D + 6 frames
# deep: D + 1 down(), the leaf, main, __libc_start_call_main,
# __libc_start_main, _start).  For each depth (10 and 50) the ns per call
# with no tracer, under dtrace's
#   pid$target:a.out:ustack_leaf:entry { @[ustack()] = count(); }
# and under bpftrace's
#   uprobe:ustack_bench:ustack_leaf { @[ustack] = count(); }
# with equal settings: both start the target with -c, tracer and target
# on CPU 0 (as the loop alone), and each must count N hits.  A hit's cost
# is the difference from no tracer; the ratio is dtrace's over bpftrace's.
# It also prints how many frames each tracer's stack has (bpftrace walks
# frame pointers: 1 on this binary) and how many keys it made (1: every
# hit has the same stack).  The variants take turns for ROUNDS rounds;
# medians and bests are printed after a line saying what it ran on.  It
# builds nothing; build first:
#
#   cmake --build build --target ustack_bench dtrace_cmd && sudo bench/run_ustack.sh build
#
#   bench/run_ustack.sh [BUILD_DIR [ROUNDS [CALLS]]]
#
# Needs root.  Without bpftrace its rows are left out.
set -euo pipefail
build=${1:-build}
rounds=${2:-5}
calls=${3:-200000}
depths=(10 50)
bin=$(realpath -m "$build/bench/ustack_bench")
dtrace=$build/bin/dtrace
# shellcheck source=bench/machine.sh
. "$(dirname "$0")/machine.sh"
bench_need run_ustack.sh ustack_bench "$bin" "$dtrace"
bench_header

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ustack_bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

variants=(none dtrace)
if $have_bpftrace; then
	variants+=(bpftrace)
fi

# The keys of a tracer's output: "keys K frames F total T", F the largest
# key's frame count.  dtrace prints a stack key as indented frames, then
# its count alone on a line (the target's own "ns/call" line is not
# indented); bpftrace as "@[", a frame a line, "]: count".
keys() {
	case $1 in
	dtrace)
		awk '/^ *[0-9]+$/ { k++; t += $1; if (f > m) m = f; f = 0; next }
			/^ +[^ ]/ { f++ }
			END { printf "keys %d frames %d total %d\n", k, m, t }' "$2" ;;
	bpftrace)
		awk '/^@\[$/ { in_key = 1; f = 0; next }
			in_key && /^\]: [0-9]+$/ { in_key = 0; k++; t += $2; if (f > m) m = f; next }
			in_key { f++ }
			END { printf "keys %d frames %d total %d\n", k, m, t }' "$2" ;;
	esac
}

run_hit() { # variant depth
	local v=$1 d=$2
	case $v in
	none) taskset -c 0 "$bin" "$calls" "$d" >"$tmp/out" ;;
	dtrace)
		taskset -c 0 "$dtrace" -q -n 'pid$target:a.out:ustack_leaf:entry { @[ustack()] = count(); }' \
			-c "$bin $calls $d" >"$tmp/out" 2>"$tmp/err" ;;
	bpftrace)
		taskset -c 0 bpftrace -e "uprobe:$bin:ustack_leaf { @[ustack] = count(); }" \
			-c "$bin $calls $d" >"$tmp/out" 2>"$tmp/err" ;;
	esac || { echo "run_ustack.sh: $v failed:" >&2; cat "$tmp/err" >&2; exit 1; }
	if [[ $v != none ]]; then
		keys "$v" "$tmp/out" >"$tmp/keys_${v}_$d"
		if ! grep -q " total $calls\$" "$tmp/keys_${v}_$d"; then
			echo "run_ustack.sh: $v did not count $calls hits at depth $d:" >&2
			cat "$tmp/keys_${v}_$d" "$tmp/out" "$tmp/err" >&2
			exit 1
		fi
	fi
	sed -n 's/^ns\/call //p' "$tmp/out" >>"$tmp/hit_${v}_$d"
}

for _ in $(seq "$rounds"); do
	for d in "${depths[@]}"; do
		for v in "${variants[@]}"; do
			run_hit "$v" "$d"
		done
	done
done

stats() { # median and best of a file of numbers
	sort -g "$1" | awk '{ v[NR] = $1 } END { printf "%s %s\n", v[int((NR + 1) / 2)], v[1] }'
}

for d in "${depths[@]}"; do
	echo "depth $d ($((d + 6)) frames at the leaf): $calls calls, $rounds rounds taking turns (ns per call)"
	printf '  %-52s %8s %8s %8s %6s %6s\n' "" median best "hit (ns)" keys frames
	read -r none_med _ < <(stats "$tmp/hit_none_$d")
	: >"$tmp/medians"
	for v in "${variants[@]}"; do
		read -r med best < <(stats "$tmp/hit_${v}_$d")
		nkeys=- nframes=-
		case $v in
		none) what="no tracer" ;;
		dtrace) what="dtrace @[ustack()] = count()" ;;
		bpftrace) what="bpftrace @[ustack] = count()" ;;
		esac
		if [[ $v != none ]]; then
			read -r _ nkeys _ nframes _ <"$tmp/keys_${v}_$d"
		fi
		printf '  %-52s %8s %8s %8s %6s %6s\n' "$what" "$med" "$best" \
			"$(awk -v a="$med" -v b="$none_med" 'BEGIN { printf "%.1f", a - b }')" "$nkeys" "$nframes"
		echo "$v $med" >>"$tmp/medians"
	done
	if $have_bpftrace; then
		awk -v n="$none_med" '{ m[$1] = $2 } END {
			printf "  hit cost dtrace/bpftrace: %.2fx\n", (m["dtrace"] - n) / (m["bpftrace"] - n) }' \
			"$tmp/medians"
	fi
	echo
done
