-- The Lua binding of the dtrace-linux toolchain, built from a checkout:
--
--   luarocks make bindings/lua/dtrace-scm-1.rockspec      (at the top of the tree)
--
-- The module is not a standalone C file: it holds the project's own libusdt
-- and libdtrace (static: DTRACE_BINDINGS_STATIC, where the project's own
-- build links the shared libraries), so the rock runs the project's CMake
-- build, which needs a C compiler, clang, CMake >= 3.18, pkg-config, libelf,
-- libbpf and libdw (Debian: clang, libelf-dev, libbpf-dev, libdw-dev); the
-- rock installs dtrace.so only (the dtrace command and the C libraries come
-- with the project's own install).  No network is needed: `luarocks make`
-- (with --local, or --tree DIR) builds the checkout it runs in (docs/lua.md).
-- Tracing needs Linux with BPF and uprobes, and root (or CAP_BPF and
-- CAP_PERFMON) for dtrace.consumer; providers need neither.
--
-- `luarocks make` builds the tree it runs in and does not fetch source.url:
-- the project has no public repository address yet, so the URL below is a
-- placeholder to set when it has one.
rockspec_format = "3.0"
package = "dtrace"
version = "scm-1"
source = {
   url = "git+https://example.invalid/dtrace-linux.git",
}
description = {
   summary = "Stable USDT probes for Lua programs, and D scripting over libdtrace",
   detailed = [[
require("dtrace") declares USDT providers at run time (typed arguments,
an `enabled` property, fire and fire_lazy), offers the lua:::function-entry
and function-return probes of the runtime with no hook while untraced, and
compiles and runs D programs, giving records and aggregations as Lua
tables. The manual is docs/lua.md.
]],
   license = "not chosen yet (the project has no licence file)",
   labels = { "tracing", "dtrace", "usdt", "bpf" },
}
supported_platforms = { "linux" }
dependencies = {
   "lua >= 5.4, < 5.5",
}
external_dependencies = {
   LIBELF = { header = "libelf.h" },
   LIBBPF = { header = "bpf/libbpf.h" },
}
build = {
   type = "cmake",
   variables = {
      CMAKE_BUILD_TYPE = "Release",
      DTRACE_WITH_PYTHON = "OFF",
      DTRACE_WITH_NODE = "OFF",
      BUILD_TESTING = "OFF",
      DTRACE_BINDINGS_STATIC = "ON", -- the rock's module holds the libraries
   },
   -- only the module goes into the rock, not the project's install step
   install_pass = false,
   install = {
      lib = { dtrace = "build.luarocks/bindings/lua/dtrace.so" },
   },
}
