"""The Lua binding, traced for real.

Lua programs declare providers with require("dtrace"), wait until a tracer
has enabled their probes (probe.enabled, dtrace.runtime_active()), fire
known values and exit; our dtrace -c runs them and must print exactly those
values and counts.  Other Lua programs drive D through dtrace.consumer
(BEGIN, tick, a spawned or grabbed Lua process) and check, in Lua, the
records and aggregation tables they get back; they print "ok" at the end.

Environment: DTRACE (our dtrace), LUA (the interpreter), LUA_DTRACE_CPATH
(build/bindings/lua/?.so), TRACELIB (tests/integration, for tracelib).
"""
import json
import os
import signal
import struct
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get("TRACELIB", os.path.join(HERE, "..", "..", "..", "tests",
                                                             "integration")))
import tracelib  # noqa: E402

DTRACE = os.environ.get("DTRACE", "dtrace")
LUA = os.environ.get("LUA", "lua5.4")
CPATH = os.environ.get("LUA_DTRACE_CPATH",
                       os.path.join(HERE, "..", "..", "..", "build", "bindings", "lua", "?.so"))

# Helpers every Lua program gets: waiting with a deadline, and checks that
# say what differed.
HELPERS = textwrap.dedent("""\
    local dtrace = require("dtrace")
    local function wait(cond, what, secs)
        local t0 = os.time()
        while not cond() do
            if os.time() - t0 > (secs or 10) then
                io.stderr:write("timeout waiting for " .. what .. "\\n")
                os.exit(3)
            end
        end
    end
    local function show(v)
        if type(v) == "string" then return string.format("%q", v) end
        if type(v) ~= "table" then return tostring(v) end
        local keys, out = {}, {}
        for k in pairs(v) do keys[#keys + 1] = k end
        table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
        for _, k in ipairs(keys) do out[#out + 1] = "[" .. show(k) .. "]=" .. show(v[k]) end
        return "{" .. table.concat(out, ",") .. "}"
    end
    local function same(a, b)
        if type(a) ~= "table" or type(b) ~= "table" then
            return a == b and math.type(a) == math.type(b)
        end
        for k, v in pairs(a) do if not same(v, b[k]) then return false end end
        for k in pairs(b) do if a[k] == nil then return false end end
        return true
    end
    local function eq(got, want, what)
        if not same(got, want) then
            error(what .. ": got " .. show(got) .. ", want " .. show(want), 2)
        end
    end
    local function fails(pattern, f, ...)
        local ok, err = pcall(f, ...)
        if ok then error("no error; wanted " .. pattern, 2) end
        if not tostring(err):find(pattern) then
            error("error " .. show(err) .. " does not match " .. show(pattern), 2)
        end
    end
    """)

# A traced child's prologue: a provider, then wait for a tracer.
PROLOGUE = HELPERS + textwrap.dedent("""\
    local p = dtrace.provider("luaprov")
    {probes}
    p:enable()
    wait(function() return {wait} end, "a tracer")
    """)


def lua_env():
    env = dict(os.environ)
    env["LUA_CPATH"] = CPATH + ";;"
    return env


def write_script(src):
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(src)
    return f.name


def run_lua(src, args=(), timeout=120):
    """Run a Lua program directly; returns the CompletedProcess."""
    path = write_script(src)
    try:
        return subprocess.run([LUA, path] + list(args), env=lua_env(), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, timeout=timeout)
    finally:
        os.unlink(path)


class Untraced(unittest.TestCase):
    def ok(self, src):
        p = run_lua(HELPERS + textwrap.dedent(src) + '\nprint("ok")\n')
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.splitlines()[-1:], ["ok"], p.stdout + p.stderr)
        return p.stdout

    def test_no_hook_while_untraced(self):
        self.ok("""\
            assert(dtrace.runtime_path(), "the runtime provider is loaded")
            local t0 = os.clock()
            while os.clock() - t0 < 0.3 do end      -- six periods of the watcher
            eq(debug.gethook(), nil, "hook")
            eq(dtrace.runtime_active(), false, "active")
            eq(dtrace.runtime_active("function-entry", "function-return"), false, "both")
            local ok, err = pcall(dtrace.runtime_active, "function-exit")
            eq(ok, false, "an unknown probe")
            assert(err:find("bad argument #1 to '[%w_.]*runtime_active' %(no runtime probe " ..
                            "'function%-exit' %(there are function%-entry, function%-return%)%)"),
                   err)
            local co = coroutine.create(function() return debug.gethook() end)
            eq(select(2, coroutine.resume(co)), nil, "a coroutine's hook")
            eq(next(dtrace.runtime_enabled()), nil, "nothing enabled")
            local t1 = os.time()
            eq(dtrace.runtime_wait(0.2, "function-entry"), false, "no tracer came")
            eq(dtrace.runtime_wait(0), false, "at once")
            assert(os.time() - t1 <= 2, "runtime_wait slept its timeout, not more")
            ok, err = pcall(dtrace.runtime_wait, 1, "function-exit")
            assert(not ok and err:find("no runtime probe 'function%-exit'"), err)
            ok, err = pcall(dtrace.runtime_wait, -1)
            assert(not ok and err:find("a number of seconds"), err)
            """)

    def test_disabled_probes_do_nothing(self):
        self.ok("""\
            local p <close> = dtrace.provider("luaidle")
            local q = p:probe("q", "int")
            eq(q.enabled, false, "enabled")
            q:fire("not even converted", {}, print)   -- nothing is looked at while disabled
            q:fire_lazy(function() error("called while disabled") end)
            p:enable()
            eq(p.enabled, true, "provider enabled")
            local path = p.path
            assert(io.open(path), "image " .. path)
            p:disable()
            eq(p.path, nil, "path after disable")
            assert(not io.open(path), "image removed")
            p:enable()
            path = p.path
            p:destroy()
            eq(p.enabled, false, "after destroy")
            eq(p.destroyed, true, "destroyed")
            assert(not io.open(path), "image removed at destroy")
            q:fire(1)                                -- a destroyed provider's probe does nothing
            eq(tostring(q), "dtrace.Probe(luaidle:::q)", "tostring")
            eq(getmetatable(q), "dtrace.Probe", "metatable hidden")
            """)

    def test_runtime_stop_leaves_the_c_fire(self):
        self.ok("""\
            local p = dtrace.provider("luastop")
            local q = p:probe("q", "int")
            p:enable()
            eq(debug.getinfo(q.fire, "S").what, "Lua", "disabled: the empty function")
            dtrace.runtime_stop()                    -- no watcher: fire tests the semaphore
            eq(debug.getinfo(q.fire, "S").what, "C", "after runtime_stop")
            q:fire("not even converted")
            local r = p:probe("r")
            eq(debug.getinfo(r.fire, "S").what, "C", "a probe made after")
            p:destroy()
            q:fire(1)
            """)

    def test_provider_table_form(self):
        self.ok("""\
            local p = dtrace.provider{name = "luaspec", module = "mymod",
                                      probes = {["query-start"] = {"string", "int"},
                                                done = {"json", ["function"] = "fn"}}}
            local q = p.probes["query-start"]
            eq(q.name, "query-start", "name")
            eq(q.argc, 2, "argc")
            eq(q.provider, p, "provider")
            eq(p.probes.done.argc, 1, "done")
            p:enable()
            assert(p.path:find("mymod"), "module in the image name: " .. p.path)
            p:destroy()
            """)

    def test_errors_are_clear(self):
        self.ok("""\
            local p = dtrace.provider("luaerr")
            fails("probe x: argument type 2: 'float32' is not one of", p.probe, p, "x", "int",
                  "float32")
            fails("argument type 1: table is not", p.probe, p, "x", {{}})
            fails("at most 12 arguments", p.probe, p, "x", "int", "int", "int", "int", "int",
                  "int", "int", "int", "int", "int", "int", "int", "int")
            fails("probe bad name: invalid", p.probe, p, "bad name", "int")
            local q = p:probe("q", "int", "string")
            fails("already has a probe q", p.probe, p, "q", "int")
            fails("provider no spaces: invalid", dtrace.provider, "no spaces")
            fails("unknown field bogus", dtrace.provider, {name = "x", bogus = 1})
            fails("name must be a string", dtrace.provider, {})
            fails("bad argument #1 to 'fire_lazy' %(callable expected, got number%)",
                  function() q:fire_lazy(3) end)
            p:destroy()
            fails("provider luaerr was destroyed", p.enable, p)
            fails("provider luaerr was destroyed", p.probe, p, "r")
            local c = dtrace.consumer()
            fails("aggregations: tracing has not started", c.aggregations, c)
            fails("bad argument #1 to 'aggregations' %(invalid option 'flat'%)",
                  function() c:aggregations("flat") end)
            fails("a command", function() c:spawn{} end)
            fails("spawn /nonexistent/prog: .*No such file", c.spawn, c, "/nonexistent/prog")
            fails("go: no probes are enabled", c.go, c)
            c:close()
            fails("the consumer is closed", c.compile, c, "BEGIN {}")
            c:close()                                   -- twice is fine
            fails("unknown field bogus", dtrace.consumer, {bogus = 1})
            fails("option bufsize: Invalid value for specified option", dtrace.consumer, {options = {bufsize = "x"}})
            fails("option nosuch: Invalid option name", dtrace.consumer, {options = {nosuch = 1}})
            fails("always reads oformat=json", dtrace.consumer, {options = {oformat = "text"}})
            """)

    def test_json_codec(self):
        self.ok(r"""
            eq(dtrace.json_decode, nil, "the decoder is gone (records come as values)")
            local e = dtrace.json_encode
            eq(e({1, 2, "x"}), '[1,2,"x"]', "array")
            eq(e({a = 1}), '{"a":1}', "object")
            local h = e({[1] = 1, [3] = 3})
            assert(h == '{"1":1,"3":3}' or h == '{"3":3,"1":1}', h)
            eq(e({}), "{}", "empty")
            eq(e(setmetatable({}, {__jsontype = "array"})), "[]", "__jsontype")
            eq(e(setmetatable({1}, {__jsontype = "object"})), '{"1":1}', "__jsontype object")
            eq(e(0.1), "0.1", "shortest float")
            eq(e(1e300), "1e+300", "big float")
            eq(e(-7), "-7", "integer")
            eq(e(true), "true", "boolean")
            eq(e(nil), "null", "nil")
            eq(e('q"\\\n\t\x01\x7f\xff\xc3\xa9'),
               [["q\"\\\n\t\u0001\u007f\u00ff]] .. '\xc3\xa9"', "string escapes")
            local t = {} t.x = {t}
            fails("json: cycle at %$%.x%[1%]", e, t)
            fails("json: cannot encode a function at %$%.f", e, {f = print})
            fails("json: cannot encode nan at %$", e, 0/0)
            fails("json: cannot encode inf at %$%[2%]", e, {1, 1/0})
            fails("json: cannot encode a boolean key at %$", e, {[true] = 1})
            local deep = {} for _ = 1, 200 do deep = {deep} end
            fails("nesting too deep", e, deep)
            local big = {}
            for i = 1, 1000 do big[i] = {k = string.rep("v", i)} end
            local parts = {}
            for i = 1, 1000 do parts[i] = '{"k":"' .. string.rep("v", i) .. '"}' end
            eq(e(big), "[" .. table.concat(parts, ",") .. "]", "a big array")
            """)

    def test_runtime_stop_and_exit(self):
        self.ok("""\
            dtrace.runtime_stop()
            local path, why = dtrace.runtime_path()
            eq(path, nil, "path")
            eq(why, "stopped by dtrace.runtime_stop()", "why")
            dtrace.runtime_stop()
            """)
        # the watcher is joined at lua_close (os.exit(0, true)), and a plain
        # exit with it running is clean too
        for ending in ("os.exit(0, true)", "os.exit(0)", ""):
            p = run_lua('require("dtrace")\nlocal x = 1\n' + ending + "\n")
            self.assertEqual((p.returncode, p.stderr), (0, ""), ending)


class Traced(unittest.TestCase):
    def setUp(self):
        tracelib.require_tracing(self, tools=())

    def run_traced(self, probes, wait, body, d, timeout=120, prologue=PROLOGUE):
        src = prologue.replace("{probes}", probes).replace("{wait}", wait) + \
            textwrap.dedent(body)
        path = write_script(src)
        # a sanitizer build preloads its runtime for the module: the child
        # Lua needs it, our (statically sanitized) dtrace must not
        env = lua_env()
        pre = env.pop("LD_PRELOAD", None)
        cmd = "%s %s" % (LUA, path) if not pre else "env LD_PRELOAD=%s %s %s" % (pre, LUA, path)
        try:
            p = subprocess.run([DTRACE, "-Zq", "-n", d, "-c", cmd], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               timeout=timeout)
        finally:
            os.unlink(path)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("drop", p.stderr)
        self.assertNotIn("timeout", p.stderr)
        self.assertNotIn("stack traceback", p.stderr)  # the child's Lua error
        return p.stdout, path, src

    def test_typed_arguments_arrive_exactly(self):
        out, _, _ = self.run_traced(
            'local tick = p:probe("tick", "int", "string", "float", "uint8", "json", "int8")',
            "tick.enabled",
            """\
            for i = 0, 99 do
                tick:fire(-i, "name" .. i, i / 4, 250 + i % 12,
                          {i = i, s = 'x"y', l = {1, 2, i}}, i * 3 - 150)
            end
            """,
            'luaprov$target:::tick { printf("%d %s %d %d %s %d\\n", arg0, copyinstr(arg1), '
            'arg2, arg3, copyinstr(arg4), arg5); }')
        lines = [l for l in out.splitlines() if l]
        self.assertEqual(len(lines), 100, out[-500:])
        # by i (arg0 is -i): the thread may move between CPUs, whose buffers
        # dtrace prints in turn
        lines.sort(key=lambda l: -int(l.split(" ", 1)[0]))
        for i, line in enumerate(lines):
            a0, a1, a2, a3, a4, a5 = line.split(" ", 5)
            self.assertEqual(int(a0), -i)
            self.assertEqual(a1, "name%d" % i)
            self.assertEqual(struct.unpack("<d", struct.pack("<q", int(a2)))[0], i / 4)
            self.assertEqual(int(a3), (250 + i % 12) & 0xff)  # 256.. wrap to 0..
            self.assertEqual(json.loads(a4), {"i": i, "s": 'x"y', "l": [1, 2, i]})
            self.assertEqual(int(a5), (i * 3 - 150 + 128) % 256 - 128)

    def test_lazy_fire_only_when_enabled(self):
        out, _, _ = self.run_traced(
            'local q = p:probe("query-start", "int")\n'
            'local pair = p:probe("pair", "string", "int")\n'
            'local other = p:probe("other", "int")',
            "q.enabled and pair.enabled",
            """\
            local calls = 0
            local function args() calls = calls + 1 return 7 end
            for i = 1, 50 do
                q:fire_lazy(args)
                pair:fire_lazy(function() return "s" .. i, i end)
                other:fire_lazy(function() os.exit(4) end)
                assert(not other.enabled)
            end
            print("lazy calls", calls)
            """,
            'luaprov$target:::query-start { @n = count(); @s = sum(arg0); } '
            'luaprov$target:::pair { @p = sum(arg1); @ps[copyinstr(arg0)] = count(); } '
            'END { printa("count %@d sum %@d pairs %@d\\n", @n, @s, @p); '
            'printa("key %s %@d\\n", @ps); }')
        self.assertIn("lazy calls\t50", out)
        self.assertIn("count 50 sum 350 pairs 1275", out)
        keys = sorted(l for l in out.splitlines() if l.startswith("key "))
        self.assertEqual(keys, sorted("key s%d 1" % i for i in range(1, 51)))

    def test_fire_errors_name_the_argument(self):
        out, _, _ = self.run_traced(
            'local q = p:probe("q", "int", "string")\nlocal j = p:probe("j", "json")',
            "q.enabled and j.enabled",
            """\
            fails("bad argument #1 to 'fire' %(integer expected for luaprov:::q, got string%)",
                  function() q:fire("x", "s") end)
            fails("bad argument #2 to 'fire' %(string expected for luaprov:::q, got table%)",
                  function() q:fire(1, {}) end)
            fails("luaprov:::q takes 2 arguments %(1 given%)", function() q:fire(1) end)
            fails("luaprov:::q takes 2 arguments %(3 given%)", function() q:fire(1, "a", 2) end)
            fails("value #1 from fire_lazy's function: integer expected for luaprov:::q, got nil",
                  function() q:fire_lazy(function() return nil, "s" end) end)
            fails("boom", function() q:fire_lazy(function() error("boom") end) end)
            local t = {} t.me = t
            fails("bad argument #1 to 'fire' %(json: cycle at %$%.me%)", function() j:fire(t) end)
            fails("value #1 from fire_lazy's function: json: cannot encode a function at %$",
                  function() j:fire_lazy(function() return print end) end)
            q:fire(3, "fine")
            j:fire({ok = true})
            print("ok")
            """,
            'luaprov$target:::q { printf("q %d %s\\n", arg0, copyinstr(arg1)); } '
            'luaprov$target:::j { printf("j %s\\n", copyinstr(arg0)); }')
        # the child's output and dtrace's share the pipe: in either order
        lines = sorted(l for l in out.splitlines() if l)
        self.assertEqual(lines, sorted(["ok", "q 3 fine", 'j {"ok":true}']), out)

    def test_runtime_function_entry_and_return(self):
        # before the module: dtrace -Z waits for its runtime provider, so
        # require() returns with the tracer there (docs/libusdt.md)
        # runtime_wait sleeps until the watcher's signal has set the hook
        prologue = ("{probes}\n" + HELPERS + "if not dtrace.runtime_wait(30, {wait}) then\n"
                    "    io.stderr:write('timeout waiting for a tracer\\n') os.exit(1)\nend\n"
                    "eq(dtrace.runtime_enabled(), {['function-entry'] = true, "
                    "['function-return'] = true}, 'enabled')\n")
        out, path, src = self.run_traced(
            textwrap.dedent("""\
            local function f(x)
                return x + 1
            end
            -- made before the tracer came: it never gets the hook
            local early = coroutine.wrap(function() for _ = 1, 10 do f(0) coroutine.yield() end end)
            """), '"function-entry", "function-return"',
            """\
            print("hook", debug.gethook())
            local function g(x) return f(x) end        -- f by a tail call: no name
            for _ = 1, 10 do early() end
            local s = 0
            for _ = 1, 1000 do s = f(s) end
            for _ = 1, 7 do g(0) end
            local late = coroutine.wrap(function() for _ = 1, 10 do f(0) coroutine.yield() end end)
            for _ = 1, 10 do late() end
            print("sum", s)
            """,
            'lua$target:::function-entry /copyinstr(arg0) == "f"/ '
            '{ @e[copyinstr(arg1), arg2] = count(); } '
            'lua$target:::function-return /copyinstr(arg0) == "f"/ '
            '{ @r[copyinstr(arg1), arg2] = count(); } '
            'lua$target:::function-entry /copyinstr(arg0) == "?"/ { @t[arg2] = count(); } '
            'lua_rt$target:::function-entry /copyinstr(arg0) == "f"/ '
            '{ @p[strtok(probeprov, "0123456789")] = count(); } '
            'END { printa("entry %s %d %@d\\n", @e); printa("return %s %d %@d\\n", @r); '
            'printa("unnamed %d %@d\\n", @t); printa("provider %s %@d\\n", @p); }',
            prologue=prologue)
        self.assertIn("hook\texternal hook", out)
        self.assertIn("sum\t1000", out)
        line = src.splitlines().index("local function f(x)") + 1
        # 1000 calls from the main thread and 10 in a coroutine made while
        # traced (it inherits the hook); not the 10 of the coroutine made before
        self.assertIn("entry %s %d 1010" % (path, line), out)
        self.assertIn("return %s %d 1010" % (path, line), out)
        self.assertEqual(len([l for l in out.splitlines() if l.startswith("entry ")]), 1, out)
        self.assertEqual(len([l for l in out.splitlines() if l.startswith("return ")]), 1, out)
        self.assertIn("unnamed %d 7\n" % line, out)  # the tail calls have no name
        # the provider is lua_rt; lua, its old name, still matches it (the
        # clauses above), in dtrace's matching
        self.assertIn("provider lua_rt 1010\n", out)

    def test_no_leak_over_a_million_fires(self):
        out, _, _ = self.run_traced(
            'local tick = p:probe("tick", "int", "string", "json")', "tick.enabled",
            """\
            local function rss()
                local f = io.open("/proc/self/statm")
                local s = f:read("a")
                f:close()
                return tonumber(s:match("^%d+%s+(%d+)")) * 4096
            end
            local obj = {k = {1, 2, 3}}
            for i = 1, 20000 do tick:fire(i, "warm", obj) end
            collectgarbage() collectgarbage()
            local before, kb = rss(), collectgarbage("count")
            for i = 1, 1000000 do tick:fire(i, "string " .. (i & 7), obj) end
            collectgarbage() collectgarbage()
            print("grew", rss() - before, math.floor((collectgarbage("count") - kb) * 1024))
            """,
            'luaprov$target:::tick { @n = count(); } END { printa("fires %@d\\n", @n); }',
            timeout=300)
        self.assertIn("fires 1020000", out)
        grew = out.split("grew\t")[1].split()
        self.assertLess(int(grew[0]), 1 << 20, "RSS grew by %s bytes" % grew[0])
        self.assertLess(int(grew[1]), 64 << 10, "the Lua heap grew by %s bytes" % grew[1])


    def test_attach_and_detach_swap_fire(self):
        """A disabled probe's fire is an empty Lua function, the C fire only
        while a tracer has it enabled: the watcher thread signals, and a
        count hook swaps the field at the next instruction.  dtrace -p
        attaching to a program that never reads q.enabled must start
        getting its fires; detaching must give the empty function back, and
        a hook the program had set must be there after each swap."""
        child = write_script(HELPERS + textwrap.dedent("""\
            local p = dtrace.provider("luaflip")
            local q = p:probe("tick", "int")
            local done = p:probe("done")
            p:enable()
            p:disable()
            p:enable()                                -- the semaphores moved
            local late = p:probe("late", "int")       -- and again: a rebuild
            local off = q.fire
            eq(debug.getinfo(off, "S").what, "Lua", "a disabled fire")
            eq(late.fire, off, "the same empty function")
            local calls = 0
            debug.sethook(function() calls = calls + 1 end, "", 1000000)
            print("ready")
            io.stdout:flush()
            local t0 = os.time()
            while q.fire == off or late.fire == off or done.fire == off do
                q:fire(0)                             -- untraced: the D predicate drops 0
                if os.time() - t0 > 30 then print("timed out attaching") os.exit(3) end
            end
            eq(debug.getinfo(q.fire, "S").what, "C", "an enabled fire")
            eq(q.enabled, true, "enabled")
            q:fire(1)
            late:fire(2)
            done:fire()
            while q.fire ~= off do
                if os.time() - t0 > 30 then print("timed out detaching") os.exit(3) end
            end
            eq(q.enabled, false, "enabled after detach")
            q:fire(3)
            eq(select(3, debug.gethook()), 1000000, "the program's hook is back")
            assert(calls > 0, "the program's hook ran")
            p:destroy()
            eq(q.fire, off, "after destroy")
            q:fire(4)                                 -- does nothing
            print("detached")
            """))
        env = lua_env()
        pre = env.pop("LD_PRELOAD", None)
        proc = subprocess.Popen(([] if not pre else ["env", "LD_PRELOAD=" + pre]) +
                                [LUA, child], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        try:
            self.assertEqual(proc.stdout.readline(), "ready\n")
            d = subprocess.run(
                [DTRACE, "-q", "-p", str(proc.pid), "-n",
                 'luaflip$target:::tick, luaflip$target:::late /arg0 > 0/ '
                 '{ printf("%s %d\\n", probename, arg0); } '
                 'luaflip$target:::done { exit(0); }'],
                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                timeout=60)
            self.assertEqual(d.returncode, 0, d.stderr)
            self.assertEqual([l for l in d.stdout.splitlines() if l], ["tick 1", "late 2"])
            rest, err = proc.communicate(timeout=60)
            self.assertEqual(proc.returncode, 0, rest + err)
            self.assertEqual(rest, "detached\n")
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            os.unlink(child)


class Consumer(unittest.TestCase):
    """D programs compiled and run from Lua (libdtrace in the Lua process)."""

    def setUp(self):
        tracelib.require_tracing(self, tools=())

    def ok(self, src, args=(), timeout=120):
        p = run_lua(HELPERS + textwrap.dedent(src) + '\nprint("ok")\n', args, timeout)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(p.stdout.splitlines()[-1:], ["ok"], p.stdout + p.stderr)
        return p.stdout

    def test_begin_records_and_aggregations(self):
        self.ok("""\
            local c <close> = dtrace.consumer()
            eq(c:compile([[
            BEGIN {
                @a["x", 1] = count(); @a["y", 2] = count(); @a["y", 2] = count();
                @s = sum(5); @neg = sum(-7);
                @q = quantize(3); @q = quantize(-1); @q = quantize(0);
                @l = lquantize(15, 0, 10, 5);
                printf("hello %d %s\\n", 42, "w");
                trace(-7); trace("str"); printa(@neg);
                exit(3);
            }]]), 1, "probes matched")
            local recs = {}
            eq(c:run(function(rec) recs[#recs + 1] = rec end), 3, "run's value (exit)")
            eq(#recs, 2, "records")
            eq({recs[2].type, recs[2].name, recs[2].value}, {"aggregation", "neg", -7}, "printa")
            local r = recs[1]
            eq({r.type, r.provider, r.module, r["function"], r.name},
               {"probe", "dtrace", "", "", "BEGIN"}, "probe")
            eq(math.type(r.cpu), "integer", "cpu")
            eq(r.data, {"hello 42 w\\n", -7, "str"}, "data")
            eq({c:status()}, {"exited", 3}, "status")
            local aggs = c:aggregations()
            eq(aggs, {
                a = {x = {[1] = 1}, y = {[2] = 2}},
                s = 5, neg = -7,
                q = {{min = -1, max = -1, count = 1}, {min = 0, max = 0, count = 1},
                     {min = 2, max = 3, count = 1}},
                l = {{min = 10, count = 1}},
            }, "tree")
            local list = c:aggregations("list")
            eq(#list, 6, "entries")
            eq(list[1], {name = "a", ["function"] = "count", keys = {"x", 1}, value = 1}, "first")
            eq(list[2], {name = "a", ["function"] = "count", keys = {"y", 2}, value = 2}, "second")
            eq(list[3].name, "s", "third")
            eq(list[5].value, aggs.q, "quantize in a list")
            eq(c:messages(), {}, "messages")
            fails("compile: tracing has started", c.compile, c, "BEGIN {}")
            eq(c:records()(c), nil, "records after the end")
            """)

    VALUES_D = textwrap.dedent("""\
        struct s { char name[8]; int x; };
        struct s g;
        BEGIN {
            g.name[0] = 'h'; g.name[1] = 0x80; g.x = 7;
            printf("%d %s\\n", 42, "w");
            tracemem(&g.name, 8);
            trace((char)-3); trace((uint16_t)65535); trace("str"); trace(g);
            @c["k", 2] = count(); @c["j", 1] = count(); @c["j", 1] = count();
            @q = quantize(5); @q = quantize(-9);
            @l = lquantize(-5, 0, 10, 5); @l = lquantize(50, 0, 10, 5);
            @a = avg(3); @a = avg(4); @m[g.name] = max(-4);
            printa(@c); printa(@q, @l);
        }
        BEGIN { trace(*(int *)8); }
        BEGIN { exit(0); }
        END { printa(@a); printa(@m); }
        """)

    @staticmethod
    def as_lua(obj):
        """A record of dtrace -x oformat=json in the shape docs/lua.md gives it."""
        def empty_is_list(v):
            return [] if v == {} else v
        if obj["type"] == "probe":
            obj["data"] = ["".join(map(chr, d["value"])) if d["action"] == "tracemem"
                           else d["value"] for d in obj["data"]]
        if "buckets" in obj:
            obj["value"] = [{k: v for k, v in b.items() if v is not None}
                            for b in obj.pop("buckets")]
        return {k: empty_is_list(v) for k, v in obj.items()}

    def test_records_are_what_oformat_json_gives(self):
        # the records API's values against the dtrace command's JSON of the same program
        with tempfile.NamedTemporaryFile("w", suffix=".d", delete=False) as f:
            f.write(self.VALUES_D)
        try:
            env = dict(os.environ)
            env.pop("LD_PRELOAD", None)  # a sanitized build's: our dtrace has its own
            d = subprocess.run([DTRACE, "-x", "oformat=json", "-qs", f.name], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               timeout=60)
            self.assertEqual(d.returncode, 0, d.stderr)
            want = [self.as_lua(json.loads(line)) for line in d.stdout.splitlines() if line]
            out = self.ok("""\
                local c <close> = dtrace.consumer()
                c:compile_file(arg[1])
                for rec in c:records() do print("R " .. dtrace.json_encode(rec)) end
                for _, m in ipairs(c:messages()) do print("M " .. m) end
                """, [f.name])
        finally:
            os.unlink(f.name)
        got = [json.loads(line[2:]) for line in out.splitlines() if line.startswith("R ")]
        got = [{k: ([] if v == {} else v) for k, v in r.items()} for r in got]
        self.assertEqual(len(got), 8, out)
        self.assertEqual([r["type"] for r in got],
                         ["probe"] + ["aggregation"] * 4 + ["error"] + ["aggregation"] * 2)
        for r in got + want:  # the CPU each ran on may differ
            self.assertIsInstance(r.pop("cpu", 0), int)
        self.assertEqual(got, want)
        msgs = [line[2:] for line in out.splitlines() if line.startswith("M ")]
        self.assertEqual(len(msgs), 1, out)
        self.assertIn("(ID 1: dtrace:::BEGIN): invalid address (0x8) in action #1", msgs[0])

    def test_record_values_by_type(self):
        self.ok("""\
            local c <close> = dtrace.consumer()
            c:compile([[BEGIN { trace((uint64_t)-1); trace((int64_t)-1); trace((uint8_t)200);
                                trace((long)0x7fffffffffffffff); exit(0); }]])
            local recs = {}
            c:run(function(rec) recs[#recs + 1] = rec end)
            local v = recs[1].data
            eq(math.type(v[1]), "float", "beyond 2^63-1: a float")
            eq(v[1], 18446744073709551615.0, "uint64 max")
            eq({v[2], v[3], v[4]}, {-1, 200, math.maxinteger}, "integers by their sign")
            eq(math.type(v[4]), "integer", "an integer")
            local c2 <close> = dtrace.consumer()
            c2:compile([[struct s { int a; short b; };
                BEGIN { this->p = (struct s *)alloca(sizeof(struct s));
                        this->p->a = 1; this->p->b = -2; print(this->p); exit(0); }]])
            local p
            c2:run(function(rec) p = rec.data[1] end)
            eq({p.type, string.unpack("<i4i2", p.bytes)}, {"struct s", 1, -2, 7}, "print()")
            eq(#p.bytes, 8, "print()'s bytes: the struct's size")
            assert(p.address ~= 0, "print()'s pointer")
            """)

    def test_drops_are_records_and_messages(self):
        # a record of 3 x 4 KB cannot fit an 8 KB buffer however fast it is read:
        # four such records are dropped, the small one is not
        self.ok("""\
            local c <close> = dtrace.consumer{options = {bufsize = "8k", strsize = "4096"}}
            c:compile([[BEGIN { this->s = "x"; trace(this->s); trace(this->s); trace(this->s); }
                        BEGIN { trace(1); }
                        tick-10ms /++t <= 3/ { this->s = "x"; trace(this->s); trace(this->s);
                                               trace(this->s); }
                        tick-10ms /t == 3/ { exit(0); }]])
            local recs, drops, dropped = 0, {}, 0
            for rec in c:records() do
                if rec.type == "drop" then drops[#drops + 1] = rec; dropped = dropped + rec.count
                elseif rec.type == "probe" then recs = recs + 1 end
            end
            eq(recs, 1, "records")
            eq(dropped, 4, "dropped")
            local msgs = c:messages()
            eq(#msgs, #drops, "a message a drop")
            for i, d in ipairs(drops) do
                eq(d.kind, "principal", "kind")
                eq(math.type(d.cpu), "integer", "cpu")
                assert(d.count > 0, "count")
                eq(msgs[i], string.format("%d drop%s on CPU %d", d.count,
                                          d.count > 1 and "s" or "", d.cpu), "message")
            end
            """)

    def test_tick_records_in_order(self):
        self.ok("""\
            local c = dtrace.consumer{options = {switchrate = "50hz", bufsize = "1m"}}
            c:compile("tick-10ms { n++; printf(\\"%d\\", n); } tick-10ms /n == 5/ { exit(0); }")
            local got = {}
            for rec in c:records() do got[#got + 1] = rec.data[1] end
            eq(got, {"1", "2", "3", "4", "5"}, "records")
            eq({c:status()}, {"exited", 0}, "status")
            c:close()
            """)

    def test_compile_errors_carry_the_diagnostic(self):
        d = tempfile.NamedTemporaryFile("w", suffix=".d", delete=False)
        d.write('BEGIN\n{\n\tprintf("%s %d\\n", $$1, $2);\n\texit(0);\n}\n')
        d.close()
        try:
            self.ok("""\
                local c = dtrace.consumer()
                local ok, err = pcall(c.compile, c, "BEGIN\\n{\\n\\ttrace(nosuch);\\n}")
                eq(ok, false, "compiled")
                eq(err, "<string>:3:8: D_IDENT_UNDEF: failed to resolve nosuch: Unknown variable name"
                        .. "\\n    \\ttrace(nosuch);\\n    \\t      ^", "diagnostic")
                fails('^<string>:1:13: D_SYNTAX: syntax error near ";"\\n    BEGIN { x = ; }\\n'
                      .. '                ^$', c.compile, c, "BEGIN { x = ; }")
                fails("compile_file: cannot open /nonexistent.d", c.compile_file, c, "/nonexistent.d")
                eq(c:compile_file(arg[1], "word", 12), 1, "compile_file")
                local got = {}
                c:run(function(rec) got[#got + 1] = rec.data[1] end)
                eq(got, {"word 12\\n"}, "macro arguments")
                """, args=[d.name])
        finally:
            os.unlink(d.name)

    def test_spawn_traces_a_lua_child(self):
        child = write_script(
            PROLOGUE.replace("{probes}", 'local tick = p:probe("tick", "int", "string")')
            .replace("{wait}", "tick.enabled") +
            'for i = 1, 100 do tick:fire(i, i % 2 == 0 and "even" or "odd") end\n')
        try:
            self.ok("""\
                local c = dtrace.consumer{options = {zdefs = true}}
                local pid = c:spawn{arg[1], arg[2]}
                eq(c:pid(), pid, "pid")
                c:compile([[luaprov$target:::tick { printf("%d %s", arg0, copyinstr(arg1)); }
                            luaprov$target:::tick { @n = count(); @s[copyinstr(arg1)] = sum(arg0); }]])
                local got, seen = 0, {}
                for rec in c:records() do
                    got = got + 1
                    seen[rec.data[1]] = true
                end
                eq(got, 100, "records")
                for i = 1, 100 do
                    assert(seen[i .. " " .. (i % 2 == 0 and "even" or "odd")], "record " .. i)
                end
                eq(c:aggregations(), {n = 100, s = {even = 2550, odd = 2500}}, "aggregations")
                eq({c:status()}, {"stopped", 0}, "status")
                c:close()
                """, args=[LUA, child])
        finally:
            os.unlink(child)

    def test_grab_then_release_removes_the_hook(self):
        child = write_script(HELPERS + textwrap.dedent("""\
            print("ready")
            io.stdout:flush()
            wait(dtrace.runtime_active, "a tracer", 30)
            local function ping() end
            local n, t0 = 0, os.time()
            while dtrace.runtime_active() do    -- until the tracer leaves
                ping()
                n = n + 1
                if os.time() - t0 > 30 then os.exit(3) end
            end
            local t1 = os.clock()
            while os.clock() - t1 < 0.2 do end
            print("unhooked", debug.gethook(), n > 0)
            """))
        proc = subprocess.Popen([LUA, child], env=lua_env(), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        try:
            self.assertEqual(proc.stdout.readline(), "ready\n")
            self.ok("""\
                local c = dtrace.consumer()
                c:grab(tonumber(arg[1]))
                c:compile('lua_rt$target:::function-entry /copyinstr(arg0) == "ping"/ '
                          .. '{ @n = count(); exit(0); }')
                eq(c:run(function() end), 0, "exit value")
                assert(c:aggregations().n >= 1, "pings seen")
                c:close()
                """, args=[str(proc.pid)])
            rest, err = proc.communicate(timeout=60)
            self.assertEqual(proc.returncode, 0, err)
            self.assertEqual(rest, "unhooked\tnil\ttrue\n")
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            os.unlink(child)

    def test_error_in_callback_loses_nothing(self):
        self.ok("""\
            local c <close> = dtrace.consumer()
            c:compile('BEGIN { printf("a"); printf("b"); printf("c"); }')
            c:compile('BEGIN { printf("d"); }')
            c:compile('BEGIN { exit(0); }')  -- last: exit() ends the firing
            fails("stop here", c.run, c, function(rec) error("stop here") end)
            local rest = {}
            for rec in c:records() do rest[#rest + 1] = rec.data end
            eq(rest, {{"d"}}, "the record after the failed one")
            local c2 = dtrace.consumer()
            c2:compile('tick-1ms { n++; printf("%d", n); }')
            local seen = 0
            eq(c2:run(function() seen = seen + 1 if seen == 3 then c2:stop() end end), 0,
               "a run stopped by its callback")
            assert(seen >= 3, "the records after stop() are drained")
            eq(c2:status(), "stopped", "status")
            c2:close()
            local c3 = dtrace.consumer()
            c3:compile('tick-1ms { printf("x"); }')
            eq(c3:run(function() c3:close() end), nil, "a run closed by its callback")
            eq(tostring(c3), "dtrace.Consumer(closed)", "closed")
            """)

    def test_interrupted_consumer_stays_usable(self):
        proc = subprocess.Popen([LUA, "-"], env=lua_env(), stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            proc.stdin.write(HELPERS + textwrap.dedent("""\
                local c = dtrace.consumer()
                local pid = c:spawn{"sleep", "60"}
                c:compile('tick-10ms { printf("t"); }')
                c:go()
                local n = 0
                local ok, err = pcall(function()
                    for _ in c:records() do
                        n = n + 1
                        if n == 1 then                  -- inside the pcall: SIGINT is caught
                            print("tracing")
                            io.stdout:flush()
                        end
                    end
                end)
                print("interrupted", ok, err)
                local rec = c:records()(c)               -- still usable
                eq(rec.data, {"t"}, "a record after the interruption")
                c:close()
                eq(os.execute("kill -0 " .. pid .. " 2>/dev/null"), nil, "the spawned process")
                print("ok")
                """))
            proc.stdin.close()
            proc.stdin = None
            self.assertEqual(proc.stdout.readline(), "tracing\n")
            time.sleep(0.3)
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=60)
            self.assertEqual(proc.returncode, 0, err)
            self.assertIn("interrupted\tfalse\tinterrupted!", out)
            self.assertEqual(out.splitlines()[-1], "ok", out + err)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


class Packaging(unittest.TestCase):
    def test_rockspec_builds_an_installable_rock(self):
        # luarocks make: the rockspec runs the project's CMake build and
        # installs dtrace.so into a tree, where require finds it
        import shutil
        if shutil.which("luarocks") is None:
            if tracelib.in_ci():
                self.fail("luarocks is not installed (scripts/dev installs it)")
            self.skipTest("no luarocks")
        root = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
        spec = os.path.join(root, "bindings", "lua", "dtrace-scm-1.rockspec")
        env = dict(os.environ)
        env.pop("LD_PRELOAD", None)
        env.pop("CC", None)
        p = subprocess.run(["luarocks", "lint", spec], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stdout)
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "src")  # a copy: the rock builds in its tree
            shutil.copytree(root, src, ignore=shutil.ignore_patterns(
                ".git", "build*", "node_modules", "__pycache__", "corpus-work"))
            tree = os.path.join(tmp, "tree")
            p = subprocess.run(["luarocks", "--lua-version", "5.4", "--tree", tree, "make",
                                os.path.join(src, "bindings", "lua", "dtrace-scm-1.rockspec")],
                               cwd=src, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, timeout=900)
            self.assertEqual(p.returncode, 0, p.stdout[-3000:])
            env["LUA_CPATH"] = os.path.join(tree, "lib", "lua", "5.4", "?.so")
            p = subprocess.run([LUA, "-e", "local d = require('dtrace'); "
                                "print(package.searchpath('dtrace', package.cpath) ~= nil, "
                                "type(d.provider), type(d.consumer))"],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout, "true\tfunction\tfunction\n")


if __name__ == "__main__":
    unittest.main()
