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
