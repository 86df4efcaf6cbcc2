#!/usr/bin/env bash
# Run the static-probe benchmark and print its table, after a line saying
# what it ran on (figures from a laptop, a server and a VM differ).  It
# builds nothing; build first:
#
#   cmake --build build --target static_probe_bench && bench/run_static.sh build
#
#   bench/run_static.sh [BUILD_DIR [iterations [repetitions]]]
#
# BUILD_DIR defaults to build; iterations (200000000) and repetitions (7)
# go to the program.  See bench/README.md for what each row measures.
set -euo pipefail
build=${1:-build}
if (($#)); then
	shift
fi
bin=$build/bench/static_probe_bench
if [[ ! -x $bin ]]; then
	echo "run_static.sh: no $bin; build it first:" >&2
	echo "  cmake --build $build --target static_probe_bench" >&2
	exit 2
fi

# shellcheck source=bench/machine.sh
. "$(dirname "$0")/machine.sh"
bench_machine
exec "$bin" "$@"
