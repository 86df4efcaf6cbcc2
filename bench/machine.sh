# Sourced by the bench/run_*.sh scripts: print what the figures were measured
# on (a laptop, a server and a VM differ).  $build is the build directory.
bench_machine() {
	local cpu virt="" cc
	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	if grep -qw hypervisor /proc/cpuinfo; then
		virt=", virtual machine"
	fi
	cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
	echo "machine: $(uname -sr), ${cpu:-unknown CPU}, $(nproc) CPUs$virt"
	if [[ -n $cc ]]; then
		echo "compiler: $("$cc" --version | head -n 1)"
	fi
}

# Exit 2 unless each file after the first two is built; $1 names the script,
# $2 the target that builds them.
bench_need() {
	local script=$1 target=$2 f
	shift 2
	for f in "$@"; do
		if [[ ! -x $f ]]; then
			echo "$script: no $f; build first:" >&2
			echo "  cmake --build $build --target $target dtrace_cmd" >&2
			exit 2
		fi
	done
}

# The machine, bpftrace's version (have_bpftrace: true if there is one) and the load.
bench_header() {
	bench_machine
	have_bpftrace=false
	if command -v bpftrace >/dev/null; then
		have_bpftrace=true
		echo "tracer: $(bpftrace --version)"
	fi
	echo "load: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
	echo
}

# A tracer in the background: start_tracer CMD... runs it with its output in
# $tmp/out and $tmp/err (the script's temporary folder) and waits until it
# prints "ready" (attached); stop_tracer ends it (only our own child, by its
# pid).  $bench_script names the script in messages.
tracer=""
stop_tracer() {
	if [[ -n $tracer ]]; then
		kill -INT "$tracer" 2>/dev/null || true
		wait "$tracer" 2>/dev/null || true
		tracer=""
	fi
}

start_tracer() {
	: >"$tmp/out"
	"$@" >"$tmp/out" 2>"$tmp/err" &
	tracer=$!
	for _ in $(seq 200); do
		if grep -q ready "$tmp/out"; then
			return 0
		fi
		sleep 0.05
	done
	echo "$bench_script: the tracer did not start: $*" >&2
	cat "$tmp/err" >&2
	exit 1
}
