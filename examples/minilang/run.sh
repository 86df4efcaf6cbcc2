#!/usr/bin/env bash
# The mini language end to end: its provider (mini_probes.d, built with
# dtrace -h/-G), then the calls, the flow and the system calls of its
# requests, each read by a D script of this directory.
#   examples/minilang/run.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
mini=$build/examples/minilang/mini
dtrace=$build/bin/dtrace
app="$here/app.mini $here/lib.mini"

echo "== the mini provider's probes (dtrace -l)"
"$dtrace" -l -n 'mini$target:::' -c "$mini $app"
echo
echo "== calls by function over 3 requests (calls.d)"
"$dtrace" -qs "$here/calls.d" -c "$mini -n 3 $app" | grep -v '^fib(\|^sum to'
echo
echo "== the flow of one request, the first lines (flow.d)"
"$dtrace" -qs "$here/flow.d" -c "$mini $app" | grep -e '->' -e '<-' | awk 'NR <= 8'
echo
echo "== a request followed into its system calls (request_syscalls.d)"
"$dtrace" -qs "$here/request_syscalls.d" -c "$mini $app" | grep -v '^fib(\|^sum to'
