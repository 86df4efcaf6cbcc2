#!/bin/sh
# kernel-shim/ is the whole kernel boundary: no libbpf call or type, no
# bpf(2) and no perf_event_open outside it.  Lists every hit in the C and
# C++ sources of libdtrace/, cmd/, dtrace-gen/ and bindings/ and fails.
#
#   kernel_boundary.sh SRCDIR     check the tree at SRCDIR
#   kernel_boundary.sh --self-test  check that each forbidden form is caught
#                                   and that what is allowed passes
#
# A comment that names a libbpf function with its parentheses counts too:
# word it otherwise.  Kernel UAPI (<linux/bpf.h>: BPF_FUNC_*, enum
# bpf_prog_type) is allowed; it describes programs, it does not call.

# libbpf functions and macros by prefix, called or declared; libbpf's
# types; the raw system calls; libbpf's headers
PATTERN='\<(bpf_map_|bpf_prog_|bpf_obj_|bpf_link_|bpf_object__|bpf_program__|btf__|libbpf_|perf_buffer__|ring_buffer__)[A-Za-z0-9_]*[[:space:]]*\(|\<LIBBPF_OPTS\>|\<struct[[:space:]]+(btf|perf_buffer|ring_buffer|bpf_object|bpf_program|bpf_map|bpf_link)\>|\<SYS_bpf\>|\<__NR_bpf\>|perf_event_open|#[[:space:]]*include[[:space:]]*<bpf/'

scan() {
	root=$1
	hits=$(cd "$root" && find libdtrace cmd dtrace-gen bindings \
		\( -name node_modules -o -name build -o -name .git \) -prune -o \
		-type f \( -name '*.c' -o -name '*.h' -o -name '*.cc' -o -name '*.cpp' \) -print \
		2>/dev/null | LC_ALL=C sort | xargs -r grep -HnE "$PATTERN")
	if [ -n "$hits" ]; then
		printf '%s\n' "$hits"
		n=$(printf '%s\n' "$hits" | wc -l)
		echo "kernel_boundary: $n use(s) of libbpf, bpf(2) or perf_event_open outside kernel-shim/" >&2
		return 1
	fi
	return 0
}

self_test() {
	tmp=$(mktemp -d) || exit 2
	trap 'rm -rf "$tmp"' EXIT
	mkdir -p "$tmp/libdtrace" "$tmp/cmd" "$tmp/dtrace-gen" "$tmp/bindings/lua"
	failed=0
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		printf '%s\n' "$line" >"$tmp/bindings/lua/x.c"
		if scan "$tmp" >/dev/null 2>&1; then
			echo "self-test: not caught: $line" >&2
			failed=1
		fi
	done <<'EOF'
	err = bpf_map_lookup_elem(fd, &key, val);
	(void)bpf_map_update_elem (fd, k, v, BPF_ANY);
	fd = bpf_prog_load(type, "x", "GPL", insns, n, &opts);
	bpf_obj_get_info_by_fd(fd, &info, &len);
	lfd = bpf_link_create(prog, pfd, BPF_PERF_EVENT, NULL);
	struct btf *btf = btf__load_vmlinux_btf();
	n = libbpf_num_possible_cpus();
	pb = perf_buffer__new(fd, 8, cb, NULL, ctx, NULL);
	rb = ring_buffer__new(fd, cb, ctx, NULL);
	LIBBPF_OPTS(bpf_map_batch_opts, o);
	struct perf_buffer *pb;
	fd = syscall(SYS_bpf, BPF_MAP_CREATE, &attr, sizeof(attr));
	fd = syscall(__NR_bpf, cmd, &attr, sz);
	pfd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, 0);
#include <bpf/bpf.h>
#  include <bpf/libbpf.h>
EOF
	# what the rule allows: the shim's calls, kernel UAPI names, similar words
	cat >"$tmp/libdtrace/ok.c" <<'EOF'
#include "ks.h"
#include <linux/bpf.h>
static enum bpf_prog_type prog_type(int kind);
int a = BPF_FUNC_map_lookup_elem, b = BPF_MAP_TYPE_PERF_EVENT_ARRAY;
err = ks_map_lookup(fd, &key, val);
ks_btf_t *btf; ks_perfbuf_t *pb;
static int bpf_size(size_t sz);
const struct btf_type *t; /* libbpf and BTF named in a comment are fine */
EOF
	rm -f "$tmp/bindings/lua/x.c"
	if ! scan "$tmp"; then
		echo "self-test: allowed code was refused" >&2
		failed=1
	fi
	[ $failed -eq 0 ] && echo "self-test: every forbidden form caught, allowed code passes"
	return $failed
}

case $1 in
--self-test) self_test ;;
"") echo "usage: $0 SRCDIR | --self-test" >&2; exit 2 ;;
*) scan "$1" && echo "kernel_boundary: no kernel calls outside kernel-shim/" ;;
esac
