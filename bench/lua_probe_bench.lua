#!/usr/bin/env lua5.4
--[[ The cost of a disabled probe in Lua, against an empty function call.

  LUA_CPATH='build/bindings/lua/?.so;;' lua5.4 bench/lua_probe_bench.lua [N]

Each line times N (default 1000000) iterations of a loop around one
statement, best of 5 (os.clock), and shows nanoseconds per iteration (the
loop included, as Python's timeit does) and the ratio to the line it is
compared with.  No tracer is attached: every probe is disabled, which is
the state probes live in almost all the time.  obj:method(...) is an
empty method call: the field lookup a probe:fire(...) also pays.  The last
lines time a plain function call before require("dtrace") and after it,
with the runtime
provider (lua:::function-entry) loaded but not traced: no hook is
installed, so they should be equal.  Prints figures; passes or fails
nothing.
]]
local n = tonumber(arg[1]) or 1000000

-- One statement in a loop, compiled on its own (once: the same code times
-- plain() before and after require), with the values as locals, after a
-- full collection (a GC cycle left pending by an earlier case that
-- allocates was seen to slow plain calls by 15%).
local chunks = {}
local function timeit(stmt, v)
	local src = "local n, empty, probe, json_probe, obj, args, plain = ...\n" ..
		"local t0 = os.clock()\n" ..
		"for i = 1, n do " .. stmt .. " end\n" ..
		"return os.clock() - t0"
	chunks[stmt] = chunks[stmt] or assert(load(src, "=" .. stmt))
	local f = chunks[stmt]
	local best = math.huge
	collectgarbage() -- each case starts with no GC cycle pending
	for _ = 1, 5 do
		local t = f(n, v.empty, v.probe, v.json_probe, v.obj, v.args, v.plain)
		if t < best then best = t end
	end
	return best / n * 1e9
end

local function plain() end
local v = { plain = plain }
timeit("plain()", v) -- warm up (CPU frequency)
local before = timeit("plain()", v)

local dtrace = require("dtrace")
local p = dtrace.provider("luabench")
v.probe = p:probe("query-start", "string", "int")
v.json_probe = p:probe("event", "json")
p:enable()
v.empty = function(a, b) end
v.obj = { k = 1, method = function(self, a, b) end }
v.args = function() return "select", 3 end

local cases = {
	{ "empty loop", "" },
	{ 'empty("select", 3)', 'empty("select", 3)' },
	{ 'obj:method("select", 3)', 'obj:method("select", 3)', 'empty("select", 3)' },
	{ 'probe:fire("select", 3)', 'probe:fire("select", 3)', 'empty("select", 3)' },
	{ "probe.enabled", "local _ = probe.enabled", 'empty("select", 3)' },
	{ "probe:fire_lazy(args)", "probe:fire_lazy(args)", 'empty("select", 3)' },
	{ "probe:fire_lazy(function ...)", 'probe:fire_lazy(function() return "select", 3 end)',
		'empty("select", 3)' },
	{ "json_probe:fire(obj)", "json_probe:fire(obj)", 'empty("select", 3)' },
}
local base = {}
print(string.format("%s, %d iterations each, best of 5, no tracer attached", _VERSION, n))
print(string.format("  %-34s %10s %10s", "", "ns/iter", "ratio"))
for _, c in ipairs(cases) do
	local label, stmt, against = c[1], c[2], c[3]
	local t = timeit(stmt, v)
	base[stmt] = t
	print(string.format("  %-34s %10.1f %10s", label, t,
		against and string.format("%.2f", t / base[against]) or ""))
end
local after = timeit("plain()", v)
print(string.format("  %-34s %10.1f %10s", "plain() before require", before, ""))
print(string.format("  %-34s %10.1f %10.2f", "plain() with the runtime provider", after,
	after / before))
print(string.format("  (runtime provider %s; hook installed: %s)",
	dtrace.runtime_path() and "loaded" or "absent", tostring(dtrace.runtime_active())))
p:destroy()
