#!/usr/bin/env bash
# Run the example job runner under a tracer and show what its stable
# provider reports.  Until our own dtrace traces (its consumer is the next
# piece of work), bpftrace reads the same probes.
#   examples/static/run.sh BUILD_DIR
set -euo pipefail
build=${1:-build}
jobs=$(cd "$build/examples/static" && pwd)/jobs

if [[ ! -e /sys/kernel/tracing/uprobe_events ]]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
fi

echo "== the probes in $jobs (dtrace -h / -G made them; bpftrace lists them)"
bpftrace -l "usdt:$jobs:*" 2>/dev/null
echo
echo "== running it untraced: the probes are nops"
"$jobs" 8
echo
echo "== running it traced"
bpftrace -e '
usdt:'"$jobs"':jobs:job__start { @start[arg0] = nsecs; }
usdt:'"$jobs"':jobs:job__done /@start[arg0]/ {
	printf("job %2d %-10s status %d  %5d us\n", arg0, str(arg1), arg2, arg3);
	@us = hist(arg3);
	@failed = sum(arg2);
	delete(@start[arg0]);
}
usdt:'"$jobs"':jobs:queue__stats { @last_done = arg1; }
' -c "$jobs 24" 2>&1 | grep -v RLIMIT_MEMLOCK
