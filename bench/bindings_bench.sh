#!/usr/bin/env bash
# The cost of a disabled probe against an empty function call, in each
# language with a binding (Python, Lua 5.4, Node), with no tracer attached.
#
#   bench/bindings_bench.sh [BUILD_DIR [N]]      (default: build, 1000000)
#
# Builds nothing: run `cmake --build BUILD_DIR` first.  Prints figures and
# passes or fails nothing; bench/README.md explains each table.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
n=${2:-1000000}

echo "== Python"
PYTHONPATH="$build/bindings/python" /usr/bin/python3 "$root/bench/python_probe_bench.py" "$n"
echo
echo "== Lua"
LUA_CPATH="$build/bindings/lua/?.so;;" lua5.4 "$root/bench/lua_probe_bench.lua" "$n"
echo
echo "== Node"
node "$root/bench/node_probe_bench.js" "$n" "$build"
