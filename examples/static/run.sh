#!/usr/bin/env bash
# Run the example job runner under our dtrace and show what its stable
# provider reports; bpftrace, an independent tracer, reads the same probes.
#   examples/static/run.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
jobs=$build/examples/static/jobs
dtrace=$build/bin/dtrace

echo "== the probes in $jobs (dtrace -h / -G made them)"
"$dtrace" -l -n 'jobs$target:::' -c "$jobs 0"
echo "== the same, as bpftrace lists them"
bpftrace -l "usdt:$jobs:*" 2>/dev/null
echo
echo "== running it untraced: the probes are nops"
"$jobs" 8
echo
echo "== running it under dtrace"
"$dtrace" -q -n '
jobs$target:::job-start { start[arg0] = timestamp; }
jobs$target:::job-done /start[arg0]/ {
	printf("job %2d %-10s status %d  %5d us\n", arg0, copyinstr(arg1), arg2, arg3);
	@us = quantize(arg3);
	@failed = sum(arg2);
	start[arg0] = 0;
}
jobs$target:::queue-stats { @last_done = max(arg1); }
END { printa("jobs done: %@d, failed: %@d\n", @last_done, @failed); printa(@us); }
' -c "$jobs 24"
