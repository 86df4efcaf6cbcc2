"""The Python binding's providers, traced for real by our dtrace.

A child /usr/bin/python3 declares a provider with dtrace.Provider, waits
until a tracer has enabled its probe (Probe.enabled), fires known values and
exits; dtrace -c runs it and must print exactly those values and counts.

Environment: DTRACE (our dtrace), PYTHONPATH (the build tree's package),
TRACELIB (tests/integration, for tracelib).
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

sys.path.insert(0, os.environ.get("TRACELIB", os.path.join(os.path.dirname(__file__), "..", "..",
                                                             "..", "tests", "integration")))
import tracelib  # noqa: E402

import dtrace  # noqa: E402

DTRACE = os.environ.get("DTRACE", "dtrace")
PYTHON = sys.executable

# The child's prologue: a provider, then wait (10 s at most) for a tracer.
PROLOGUE = textwrap.dedent("""\
    import sys, time
    import dtrace
    p = dtrace.Provider("pyprov")
    {probes}
    p.enable()
    deadline = time.monotonic() + 10
    while not all(w.enabled for w in [{wait}]):  # a tracer enables probes one by one
        if time.monotonic() > deadline:
            sys.exit("no tracer came")
        time.sleep(0.005)
    """)


def trace_program(test, src, d, timeout):
    """Run the Python program src under `dtrace -Zq -n d -c`; (its path, dtrace's output)."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(src)
    # a sanitizer build preloads its runtime for the extension: the child
    # Python needs it, our (statically sanitized) dtrace must not
    env = dict(os.environ)
    pre = env.pop("LD_PRELOAD", None)
    cmd = "%s %s" % (PYTHON, f.name) if not pre else \
        "env LD_PRELOAD=%s %s %s" % (pre, PYTHON, f.name)
    try:
        p = subprocess.run([DTRACE, "-Zq", "-n", d, "-c", cmd], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=timeout)
    finally:
        os.unlink(f.name)
    test.assertEqual(p.returncode, 0, p.stderr)
    test.assertNotIn("drop", p.stderr)
    return f.name, p.stdout


class Traced(unittest.TestCase):
    def setUp(self):
        tracelib.require_tracing(self, tools=())

    def run_traced(self, probes, wait, body, d, timeout=120):
        src = PROLOGUE.format(probes=probes, wait=wait) + textwrap.dedent(body)
        return trace_program(self, src, d, timeout)[1]

    def test_typed_arguments_arrive_exactly(self):
        out = self.run_traced(
            'tick = p.probe("tick", int, str, float, "uint8", dict)', "tick",
            """\
            for i in range(100):
                tick.fire(-i, "name%d" % i, i / 4, 250 + i % 12, {"i": i, "s": "x\\"y"})
            """,
            'pyprov$target:::tick { printf("%d %s %d %d %s\\n", arg0, copyinstr(arg1), '
            'arg2, arg3, copyinstr(arg4)); }')
        lines = [l for l in out.splitlines() if l]  # dtrace ends with a blank line
        self.assertEqual(len(lines), 100, out[-500:])
        # by i (arg0 is -i): the thread may move between CPUs, whose buffers
        # dtrace prints in turn
        lines.sort(key=lambda l: -int(l.split(" ", 1)[0]))
        for i, line in enumerate(lines):
            a0, a1, a2, a3, a4 = line.split(" ", 4)
            self.assertEqual(int(a0), -i)
            self.assertEqual(a1, "name%d" % i)
            self.assertEqual(struct.unpack("<d", struct.pack("<q", int(a2)))[0], i / 4)
            self.assertEqual(int(a3), (250 + i % 12) & 0xff)  # 256.. wrap to 0..
            self.assertEqual(json.loads(a4), {"i": i, "s": 'x"y'})

    def test_fires_right_after_enable_are_not_lost(self):
        # no wait for the tracer: enable() returns once dtrace -Z has attached
        # (libusdt:::provider-enabled), even right after the import that
        # loaded libusdt (USDT_TRACED_PID)
        src = textwrap.dedent("""\
            import dtrace
            p = dtrace.Provider("pyprov")
            q = p.probe("query-start", int)
            p.enable()
            for i in range(500):
                q.fire(i)
            """)
        for _ in range(3):
            out = trace_program(self, src, 'pyprov$target:::query-start '
                                '{ @n = count(); @s = sum(arg0); }', 60)[1]
            self.assertEqual(out.split(), ["500", str(500 * 499 // 2)])

    def test_probe_name_dashes_and_lazy_fire(self):
        out = self.run_traced(
            'q = p.probe("query-start", int)\nother = p.probe("other", int)', "q",
            """\
            calls = []
            def args():
                calls.append(1)
                return 7
            for i in range(50):
                q.fire_lazy(args)
                other.fire_lazy(lambda: sys.exit("called while disabled"))
            print("lazy calls", len(calls))
            """,
            'pyprov$target:::query-start { @n = count(); @s = sum(arg0); } '
            'END { printa("count %@d sum %@d\\n", @n, @s); }')
        self.assertIn("lazy calls 50", out.splitlines())
        self.assertIn("count 50 sum 350", out.splitlines())

    def test_function_decorator_counts_calls(self):
        out = self.run_traced(
            textwrap.dedent("""\
            @p.function
            def work(x):
                return x * 2
            @p.function(name="named")
            def other():
                raise ValueError
            """), "work.entry_probe, work.return_probe, other.entry_probe, other.return_probe",
            """\
            total = sum(work(i) for i in range(30))
            for _ in range(5):
                try:
                    other()
                except ValueError:
                    pass
            print("total", total)
            """,
            'pyprov$target:::work-entry, pyprov$target:::work-return, '
            'pyprov$target:::named-entry, pyprov$target:::named-return '
            '{ @[probename] = count(); } '
            'END { printa("%s %@d\\n", @); }')
        self.assertIn("total 870", out.splitlines())
        for want in ("work-entry 30", "work-return 30", "named-entry 5", "named-return 5"):
            self.assertIn(want, out.splitlines())

    def test_no_leak_over_a_million_fires(self):
        out = self.run_traced(
            'tick = p.probe("tick", int, str, dict)', "tick",
            """\
            def rss():
                with open("/proc/self/statm") as f:
                    return int(f.read().split()[1]) * 4096
            obj = {"k": [1, 2, 3]}
            for i in range(20000):
                tick.fire(i, "warm", obj)
            before = rss()
            for i in range(1000000):
                tick.fire(i, "string %d" % (i & 7), obj)
            print("grew", rss() - before)
            """,
            'pyprov$target:::tick { @n = count(); } END { printa("fires %@d\\n", @n); }',
            timeout=300)
        self.assertIn("fires 1020000", out.splitlines())
        grew = int(out.split("grew ")[1].split()[0])
        self.assertLess(grew, 1 << 20, "RSS grew by %d bytes" % grew)


class Runtime(unittest.TestCase):
    """python_rt: function-entry/-return of every Python function."""

    def setUp(self):
        tracelib.require_tracing(self, tools=())

    def run_program(self, body, d, timeout=120):
        src = "import sys, threading, dtrace\n" + textwrap.dedent(body)
        return trace_program(self, src, d, timeout)

    def test_known_call_counts_file_and_line(self):
        # f: 1000 direct calls, 300 from g (Python to Python: inlined by
        # 3.11's interpreter, still reported), 7 through map (entered from
        # C); one call raises (its return still fires); a thread started
        # while traced gets the hook before its 50 calls
        path, out = self.run_program("""\
            dtrace.runtime.start(interval=0.01)
            # the tracer attaches its probes one after another: wait for both
            if not dtrace.runtime.wait_active(10, ("function-entry", "function-return")):
                sys.exit("no tracer came")
            if dtrace.runtime.enabled != {"function-entry", "function-return"}:
                sys.exit("enabled: %r" % dtrace.runtime.enabled)
            def f(x):
                if x is None:
                    raise ValueError(x)
                return x + 1
            def g(n):
                for i in range(n):
                    f(i)
            for i in range(1000):
                f(i)
            g(300)
            list(map(f, range(7)))
            try:
                f(None)
            except ValueError:
                pass
            def worker():
                while not dtrace.runtime.hooked:
                    pass
                for i in range(50):
                    f(i)
            t = threading.Thread(target=worker)
            t.start()
            t.join()
            """,
            'python_rt$target:::function-entry /copyinstr(arg0) == "f" || copyinstr(arg0) == "g"/ '
            '{ @e[copyinstr(arg0), copyinstr(arg1), arg2] = count(); } '
            'python_rt$target:::function-return /copyinstr(arg0) == "f"/ { @r[arg2] = count(); } '
            'END { printa("%s %s %d %@d\\n", @e); printa("ret %d %@d\\n", @r); }')
        lines = sorted(l for l in out.splitlines() if l)
        # def f is on line 8 of the program, its returns on 10 (raise) and 11
        self.assertEqual(lines, sorted([
            "f %s 8 %d" % (path, 1000 + 300 + 7 + 1 + 50),
            "g %s 12 1" % path,
            "ret 10 1",
            "ret 11 %d" % (1000 + 300 + 7 + 50)]), out)

    def test_runtime_calls_right_after_start_are_not_lost(self):
        # no wait_active(): start() returns with the hook installed when a
        # dtrace -Z waited for the provider
        path, out = self.run_program("""\
            dtrace.runtime.start(interval=10)
            def f(x):
                return x
            for i in range(1000):
                f(i)
            """,
            'python_rt$target:::function-entry /copyinstr(arg0) == "f"/ { @e = count(); } '
            'python_rt$target:::function-return /copyinstr(arg0) == "f"/ { @r = count(); }')
        self.assertEqual(out.split(), ["1000", "1000"], out)

    def test_other_profilers_are_kept(self):
        # a thread with its own sys.setprofile keeps it while traced
        path, out = self.run_program("""\
            calls = []
            def prof(frame, event, arg):
                if event == "call" and frame.f_code.co_name == "h":
                    calls.append(1)
            dtrace.runtime.start(interval=0.01)
            if not dtrace.runtime.wait_active(10):
                sys.exit("no tracer came")
            def h():
                pass
            def k():
                pass
            sys.setprofile(prof)
            for i in range(10):
                h()
            sys.setprofile(None)
            while not dtrace.runtime.hooked:  # ours comes back within an interval
                pass
            for i in range(3):
                k()
            print(len(calls))
            """,
            'python_rt$target:::function-entry /copyinstr(arg0) == "h" || copyinstr(arg0) == "k"/ '
            '{ @[copyinstr(arg0)] = count(); } END { printa("dtrace %s %@d\\n", @); }')
        self.assertEqual(sorted(l for l in out.splitlines() if l), ["10", "dtrace k 3"], out)


class Scripting(unittest.TestCase):
    """dtrace.Consumer: D programs run from Python, values back."""

    def setUp(self):
        tracelib.require_tracing(self, tools=())

    def test_records_and_aggregations_are_values(self):
        with dtrace.Consumer("""
                BEGIN {
                    @a["x", 1] = count(); @a["y", -2] = count(); @a["y", -2] = count();
                    @s = sum(-5); @m[3] = max(9); @m[3] = max(4);
                    @q = quantize(3); @q = quantize(0); @q = quantize(1000);
                    @l = lquantize(25, 0, 20, 10);
                    trace(-5); trace("str"); trace((uint64_t)-1);
                    printf("hi %d %s\\n", 7, "there"); printa(@s);
                    exit(3);
                }""") as c:
            recs = list(c.records())
            self.assertEqual(len(recs), 1)
            self.assertEqual(recs[0].probe, ("dtrace", "", "", "BEGIN"))
            self.assertEqual(recs[0].data, [-5, "str", 2**64 - 1, "hi 7 there\n"])
            self.assertEqual(c.exit_status, 3)
            self.assertEqual(c.aggregations(), {
                "a": {("x", 1): 1, ("y", -2): 2},
                "s": {(): -5},
                "m": {(3,): 9},
                "q": {(): [(0, 0, 1), (2, 3, 1), (512, 1023, 1)]},
                "l": {(): [(20, None, 1)]},
            })
            self.assertEqual(c.errors, [])

    # dtrace -x oformat=json's values, as the Consumer read them when it parsed that JSON
    @staticmethod
    def json_values(prog, target):
        env = dict(os.environ)
        env.pop("LD_PRELOAD", None)  # the sanitizer build's, for this Python: not for dtrace
        p = subprocess.run([DTRACE, "-q", "-x", "oformat=json", "-n", prog, "-c", target],
                           capture_output=True, text=True, timeout=120, env=env)
        recs, aggs = [], {}
        for line in p.stdout.splitlines():
            if not line.startswith("{"):  # the target's own output
                continue
            o = json.loads(line)
            if o["type"] == "probe":
                recs.append([bytes(d["value"]) if d["action"] == "tracemem" else d["value"]
                             for d in o["data"]])
            elif o["type"] == "aggregation":
                v = ([(b["min"], b["max"], b["count"]) for b in o["buckets"]]
                     if "buckets" in o else o["value"])
                aggs.setdefault(o["name"], []).append((o["keys"], v))
        return p, recs, aggs

    def test_values_are_those_of_dtrace_json(self):
        # every kind of value, from the records API, against dtrace's JSON of
        # the same program: addresses differ from run to run (ASLR), so they
        # are compared by their names and checked to be the same in a run
        prog = r"""
            syscall::write:entry /pid == $target/ {
                trace((char)-1); trace((uint8_t)255); trace((short)-2);
                trace((uint32_t)-1); trace((int64_t)-3); trace(-1LL << 63);
                trace((uint64_t)-1); trace("a\xffb\xc3\xa9\t\"");
                tracemem(copyin(arg1, 3), 3); printf("%s|%d|%c\n", execname, -5, 'x');
                ustack(4); ufunc(ucaller); umod(ucaller); uaddr(ucaller); usym(ucaller);
                @u[usym(ucaller), ustack(3)] = count();
                @m[umod(ucaller), uaddr(ucaller), ufunc(ucaller), "k\xfe"] = sum(-7);
                @k[stack(2)] = count();
                @q = quantize(-5); @q = quantize(1LL << 62); @q = quantize(0);
                @l = lquantize(-5, 0, 10, 2); @l = lquantize(5, 0, 10, 2);
                @l = lquantize(50, 0, 10, 2);
                @ll = llquantize(1234, 10, 0, 6, 20); @ll = llquantize(0, 10, 0, 6, 20);
                @a = avg(7); @a = avg(8); @sd = stddev(3); @sd = stddev(9);
                @mn = min(-4); @mx = max(-4);
            }"""
        target = ["/bin/echo", "hi"]

        def named(v):  # a value with its addresses and pid replaced
            if isinstance(v, dict):
                return {k: named(x) if k not in ("address", "pid") else type(x)
                        for k, x in v.items()}
            if isinstance(v, (list, tuple)):
                return type(v)(named(x) for x in v)
            if isinstance(v, str):  # an unnamed frame is module`0xADDR; BPF programs' tags
                v = re.sub(r"bpf_prog_[0-9a-f]+", "bpf_prog_", v)
                return v.split("`0x")[0] + ("`0x" if "`0x" in v else "")
            return v

        p, want_recs, want_aggs = self.json_values(prog, " ".join(target))
        self.assertEqual(p.returncode, 0, p.stderr)
        with dtrace.Consumer(prog, target=target) as c:
            recs = list(c.records(timeout=120))
            aggs = c.aggregations()
            pid = c.target
        self.assertEqual(len(recs), 1)
        self.assertEqual(len(want_recs), 1)
        data = recs[0].data
        self.assertEqual(named(data), named(want_recs[0]))
        # the values themselves, where they do not depend on the run
        self.assertEqual(data[:8], [-1, 255, -2, 2**32 - 1, -3, -2**63, 2**64 - 1,
                                    "a\xffb\xe9\t\""])
        self.assertEqual(data[8:10], [b"hi\n", "echo|-5|x\n"])
        ustack, ufunc, umod, uaddr, usym = data[10:]
        self.assertEqual(ustack["pid"], pid)
        self.assertEqual(len(ustack["frames"]), 4)
        self.assertEqual(ustack["frames"][0]["symbol"], "write")
        self.assertEqual(ustack["frames"][0]["name"],
                         "libc.so.6`write+0x%x" % ustack["frames"][0]["offset"])
        # ufunc and usym give the function's start, uaddr the caller's return address
        self.assertEqual(ufunc["address"], usym["address"])
        self.assertEqual(uaddr["address"], ustack["frames"][1]["address"])
        self.assertEqual(uaddr["address"] - uaddr["offset"], ufunc["address"])
        self.assertEqual((umod["module"], umod["pid"]), ("libc.so.6", pid))
        self.assertNotIn("symbol", umod)
        # aggregations: the same entries in the same order; symbol and stack
        # keys are dicts, hashable
        self.assertEqual(list(aggs), list(want_aggs))
        for name, entries in want_aggs.items():
            self.assertEqual([(named(list(k)), v) for k, v in aggs[name].items()],
                             [(named(k), v) for k, v in entries], name)
        self.assertEqual(aggs["q"][()], [(-7, -4, 1), (0, 0, 1),
                                         (2**62, 2**63 - 1, 1)])
        self.assertEqual(aggs["l"][()], [(None, -1, 1), (4, 5, 1), (10, None, 1)])
        self.assertEqual(aggs["ll"][()], [(None, 0, 1), (1000, 1499, 1)])
        self.assertEqual((aggs["a"][()], aggs["sd"][()], aggs["mn"][()]), (7, 3, -4))
        (mkey, msum), = aggs["m"].items()
        self.assertEqual((mkey[1], mkey[2], mkey[3], msum), (uaddr, ufunc, "k\xfe", -7))
        self.assertEqual(list(aggs["u"].items()),
                         [((usym, {"pid": pid, "frames": ustack["frames"][:3]}), 1)])
        self.assertEqual(hash(mkey), hash(tuple(mkey)))  # keys that hold dicts are hashable
        (kkey,), = aggs["k"]
        self.assertNotIn("pid", kkey)
        self.assertEqual(len(kkey["frames"]), 2)

    def test_print_gives_address_type_and_bytes(self):
        with dtrace.Consumer("""
                struct s { int a; char b[4]; };
                BEGIN {
                    this->p = (struct s *)alloca(sizeof(struct s));
                    this->p->a = 7; this->p->b[0] = 'z';
                    print(this->p); trace((uint64_t)this->p); exit(0);
                }""") as c:
            (rec,) = list(c.records())
        printed, addr = rec.data
        self.assertEqual(printed, {"address": addr, "type": "struct s",
                                   "bytes": struct.pack("<i4s", 7, b"z")})

    def test_drops_and_faults_are_data(self):
        # what was not read is counted: nine firings in ten write a record
        # of 3 x 4 KB that cannot fit an 8 KB buffer however fast it is read
        # (certain drops), the tenth a small one (read, or dropped when the
        # buffer is full)
        n = 100000
        child = "import os\nfor _ in range(%d): os.getppid()\n" % n
        with dtrace.Consumer("syscall::getppid:entry /pid == $target && ++self->n % 10 == 0/ "
                             "{ trace(arg0); } "
                             "syscall::getppid:entry /pid == $target && self->n % 10 != 0/ "
                             "{ this->s = \"x\"; trace(this->s); trace(this->s); "
                             "trace(this->s); }",
                             options={"bufsize": "8k", "strsize": "4096",
                                      "switchrate": "50ms"},
                             target=[PYTHON, "-c", child]) as c:
            got = sum(1 for _ in c.records(timeout=120))
            self.assertEqual(c.target_status, 0)
        dropped = sum(d["count"] for d in c.drops)
        self.assertGreaterEqual(dropped, n - n // 10)
        self.assertEqual(got + dropped, n)
        for d in c.drops:
            self.assertEqual((d["type"], d["kind"]), ("drop", "principal"), d)
            self.assertIn(d["cpu"], range(os.cpu_count()))
        self.assertEqual(c.messages, ["%d drop%s on CPU %d" % (d["count"],
                                                               "s" if d["count"] > 1 else "",
                                                               d["cpu"]) for d in c.drops])
        # a fault in a predicate, then in an action: each an object and a message
        with dtrace.Consumer("""
                BEGIN / *(int *)16 == 0 / { trace(1); }
                BEGIN { this->z = 0; trace(2); trace(1 / this->z); }
                BEGIN { exit(0); }""") as c:
            self.assertEqual([r.data for r in c.records()], [])
        self.assertEqual([(e["epid"], e["name"], e["fault"], e.get("address"))
                          for e in c.errors],
                         [(1, "BEGIN", "invalid address", 16), (2, "BEGIN", "divide-by-zero", None)])
        self.assertEqual(c.errors[0]["action"], 0)
        self.assertGreater(c.errors[1]["action"], 0)
        self.assertEqual(len(c.messages), 2)
        self.assertIn("invalid address (0x10) in predicate", c.messages[0])
        self.assertIn("divide-by-zero in action #%d" % c.errors[1]["action"], c.messages[1])

    def test_an_error_in_a_callback_loses_no_record(self):
        # the three records are read at once; the callback fails at the first
        with dtrace.Consumer("BEGIN { trace(1); } BEGIN { trace(2); } BEGIN { trace(3); }"
                             "BEGIN { exit(0); }") as c:
            seen = []

            def fail(rec):
                seen.append(rec.data)
                raise ZeroDivisionError

            with self.assertRaises(ZeroDivisionError):
                c.run(fail)
            self.assertEqual(seen, [[1]])
            self.assertEqual([r.data for r in c.records()], [[2], [3]])
            self.assertEqual(c.exit_status, 0)
            self.assertEqual(c.poll(), [])

    def test_tracing_a_python_target(self):
        # a real child: its provider's probes and python_rt's calls, counted
        prog = textwrap.dedent("""\
            import dtrace, time
            p = dtrace.Provider("pyscript")
            q = p.probe("step", int, str)
            p.enable()
            dtrace.runtime.start(interval=0.01)
            deadline = time.monotonic() + 10
            while not (q.enabled and dtrace.runtime.hooked) and time.monotonic() < deadline:
                time.sleep(0.005)
            def work(i):
                q.fire(i, "n%d" % (i % 3))
            for i in range(600):
                work(i)
            """)
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
            f.write(prog)
        env_pre = os.environ.get("LD_PRELOAD")
        argv = [PYTHON, f.name] if not env_pre else ["env", "LD_PRELOAD=" + env_pre, PYTHON, f.name]
        try:
            with dtrace.Consumer("""
                    pyscript$target:::step { @n[copyinstr(arg1)] = count(); @t = sum(arg0); }
                    pyscript$target:::step /arg0 % 100 == 0/ { printf("%d", arg0); }
                    python_rt$target:::function-entry /copyinstr(arg0) == "work"/ { @w = count(); }
                    """, target=argv, zdefs=True) as c:
                got = [r.data[0] for r in c.records(timeout=120)]
                aggs = c.aggregations()
                self.assertEqual(os.WEXITSTATUS(c.target_status), 0)
        finally:
            os.unlink(f.name)
        # in any order: the child may move between CPUs, whose buffers come in turn
        self.assertEqual(sorted(got, key=int), ["0", "100", "200", "300", "400", "500"])
        self.assertEqual(aggs["n"], {("n0",): 200, ("n1",): 200, ("n2",): 200})
        self.assertEqual(aggs["t"], {(): sum(range(600))})
        self.assertEqual(aggs["w"], {(): 600})
        self.assertEqual(c.drops, [])

    def test_gil_is_released_and_stop_is_clean(self):
        # while records() waits, other threads run; a timeout stops tracing
        # and END's records come last; aggregations read mid-run are live
        import threading
        ticks = []
        stop = threading.Event()

        def spin():
            while not stop.is_set():
                ticks.append(time.monotonic())
                stop.wait(0.001)
        t = threading.Thread(target=spin)
        t.start()
        try:
            with dtrace.Consumer("""
                    BEGIN { @b = count(); }
                    END { printf("end"); }""", options={"switchrate": "50ms"}) as c:
                self.assertEqual(c.aggregations(), {})  # not started
                t0 = time.monotonic()
                recs = [r.data for r in c.records(timeout=0.5)]
                t1 = time.monotonic()
                self.assertEqual(c.aggregations(), {"b": {(): 1}})
        finally:
            stop.set()
            t.join()
        self.assertEqual(recs, [["end"]])
        # the spinner ran while records() waited (it holds the GIL otherwise)
        self.assertTrue(any(t0 < t < t1 for t in ticks), (t0, t1, ticks[-3:]))

    def test_interrupt_leaves_the_consumer_usable(self):
        # Ctrl-C while records() waits raises KeyboardInterrupt; stop() and
        # aggregations() still work afterwards
        import signal
        with dtrace.Consumer("BEGIN { @x = sum(42); } END { printf(\"bye\"); }",
                             options={"switchrate": "10s"}) as c:
            it = c.records()
            old = signal.signal(signal.SIGALRM, lambda *a: (_ for _ in ()).throw(KeyboardInterrupt))
            signal.setitimer(signal.ITIMER_REAL, 0.2)  # after the handler: a stall can't kill us
            try:
                with self.assertRaises(KeyboardInterrupt):
                    for _ in it:
                        pass
            finally:
                signal.signal(signal.SIGALRM, old)
            c.stop()
            self.assertEqual([r.data for r in c.records()], [["bye"]])
            self.assertEqual(c.aggregations(), {"x": {(): 42}})

    def test_close_kills_a_spawned_target(self):
        c = dtrace.Consumer("BEGIN { exit(0); }", target=["sleep", "60"])
        pid = c.target
        self.assertEqual(list(c.records()), [])
        os.kill(pid, 0)  # still there: exit() ended tracing, not the target
        c.close()
        with self.assertRaises(ProcessLookupError):
            os.kill(pid, 0)

    def test_a_failed_constructor_kills_its_target(self):
        before = set(os.listdir("/proc"))
        with self.assertRaises(dtrace.CompileError):
            dtrace.Consumer("BEGIN { x = ; }", target=["sleep", "60"])
        # no sleep child left running untraced (and none left as a zombie)
        for pid in set(os.listdir("/proc")) - before:
            try:
                with open("/proc/%s/comm" % pid) as f:
                    self.assertNotEqual(f.read().strip(), "sleep")
            except OSError:
                pass

    def test_diagnostic_cut_inside_a_character(self):
        # the diagnostic keeps 255 bytes of the source line: here that cuts
        # a two-byte character in half, and the error is still a CompileError
        src = 'BEGIN { x = "a' + "\u00e9" * 200 + '"; y = ; }'
        with self.assertRaises(dtrace.CompileError) as e:
            dtrace.Consumer(src)
        self.assertEqual(e.exception.tag, "D_SYNTAX")
        # the line's first 255 bytes, the half character shown as U+FFFD
        self.assertEqual(e.exception.source, src.encode()[:255].decode("utf-8", "replace"))

    def test_faults_and_bad_input_are_errors(self):
        with dtrace.Consumer("BEGIN { trace(*(int *)8); } BEGIN { exit(0); }") as c:
            self.assertEqual(list(c.records()), [])
            self.assertEqual(len(c.errors), 1)
            self.assertEqual(c.errors[0]["fault"], "invalid address")
            self.assertEqual(c.errors[0]["address"], 8)
            self.assertIn("invalid address (0x8)", c.messages[0])
        with self.assertRaises(dtrace.CompileError) as e:
            dtrace.Consumer("BEGIN\n{ x = ; }")
        self.assertEqual((e.exception.tag, e.exception.line, e.exception.column),
                         ("D_SYNTAX", 2, 7))
        self.assertEqual(e.exception.source, "{ x = ; }")
        self.assertEqual(str(e.exception), '<program>:2:7: D_SYNTAX: syntax error near ";"')
        with self.assertRaisesRegex(dtrace.DTraceError, "option nosuch"):
            dtrace.Consumer("BEGIN {}", options={"nosuch": 1})
        with self.assertRaisesRegex(dtrace.DTraceError, "spawn: .*No such file"):
            dtrace.Consumer("BEGIN {}", target=["/nonexistent/x"])
        with self.assertRaisesRegex(TypeError, "argv list"):
            dtrace.Consumer("BEGIN {}", target="ls")
        with self.assertRaisesRegex(dtrace.DTraceError, "exec: "):
            dtrace.Consumer("nosuchprovider:::x {}")
        self.assertEqual(dtrace.Consumer("nosuch:::x {}", zdefs=True).compile("BEGIN {}"), 1)
        c = dtrace.Consumer("BEGIN { exit(0); }")
        c.close()
        c.close()
        with self.assertRaisesRegex(ValueError, "closed"):
            c.go()
        # the Consumer reads JSON: a program may not switch it back to text
        with self.assertRaisesRegex(ValueError, "oformat"):
            dtrace.Consumer("BEGIN {}").setopt("oformat", "text")
        with self.assertRaisesRegex(ValueError, "go: oformat=text was set"):
            dtrace.Consumer("#pragma D option oformat=text\nBEGIN { exit(0); }").go()
        # macro arguments
        with dtrace.Consumer("BEGIN { trace($1 + 1); trace($$2); exit(0); }", 41, "x") as c:
            self.assertEqual([r.data for r in c.records()], [[42, "x"]])


class Untraced(unittest.TestCase):
    def test_no_hook_while_untraced(self):
        # the probes exist, nobody traces them: no profile function, and
        # sys.setprofile users are left alone
        code = textwrap.dedent("""\
            import os, sys, time, dtrace
            dtrace.runtime.start(interval=0.01)
            pid = os.fork()   # the child has no watcher: stop() must not wait for one
            if pid == 0:
                dtrace.runtime.stop()
                os._exit(0 if not dtrace.runtime.running else 1)
            assert os.waitpid(pid, 0)[1] == 0
            time.sleep(0.2)
            assert dtrace.runtime.running
            assert not dtrace.runtime.active and not dtrace.runtime.hooked
            assert sys.getprofile() is None
            assert dtrace.runtime.enabled == frozenset()
            assert not dtrace.runtime.wait_active(0.05, "function-return")
            try:
                dtrace.runtime.wait_active(1, ("function-entry", "function-exit"))
            except ValueError as e:
                print(e)
            dtrace.runtime.stop()
            assert not dtrace.runtime.running
            dtrace.runtime.start(interval=0.01)  # again, then exit with it running
            try:
                dtrace.runtime.start()
            except RuntimeError as e:
                print(e)
            try:
                dtrace.runtime.start(interval=0)
            except ValueError as e:
                print(e)
            """)
        p = subprocess.run([PYTHON, "-c", code], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.splitlines(), [
            "wait_active(): no runtime probe function-exit "
            "(there are function-entry, function-return)",
            "start(): the runtime provider is already started",
            "start(): interval must be 0.001 to 60 seconds"])

    def test_disabled_probe_does_nothing(self):
        with dtrace.Provider("pyidle") as p:
            q = p.probe("q", int)
            self.assertFalse(q.enabled)
            q.fire("not even converted")  # nothing is looked at while disabled
            q.fire_lazy(lambda: self.fail("called while disabled"))
            self.assertTrue(p.enabled)
            self.assertTrue(os.path.exists(p.path))
            path = p.path
        self.assertFalse(p.enabled)
        self.assertFalse(os.path.exists(path))
        q.fire(1)  # a destroyed provider's probe does nothing

    def test_a_dropped_provider_is_collected(self):
        # a Provider and its Probes refer to each other: the GC frees them,
        # and the provider's image goes with it
        import gc
        p = dtrace.Provider("pygc")
        q = p.probe("x", int)
        p.enable()
        path = p.path
        self.assertTrue(os.path.exists(path))
        del p, q
        gc.collect()
        self.assertFalse(os.path.exists(path))

    def test_uninitialised_provider_is_safe(self):
        p = dtrace.Provider.__new__(dtrace.Provider)
        self.assertEqual(repr(p), "<dtrace.Provider, not initialised>")
        self.assertIsNone(p.name)
        self.assertEqual(p.probes, ())
        with self.assertRaisesRegex(dtrace.UsdtError, "destroyed"):
            p.probe("x", int)
        q = dtrace.Provider("pyonce")
        q.destroy()
        with self.assertRaisesRegex(dtrace.UsdtError, "called twice"):
            q.__init__("again")

    def test_errors_are_clear(self):
        p = dtrace.Provider("pyerr")
        with self.assertRaisesRegex(TypeError, r"argument type 2: 'float32' is not"):
            p.probe("x", int, "float32")
        with self.assertRaisesRegex(TypeError, "at most 12 arguments"):
            p.probe("x", *([int] * 13))
        with self.assertRaisesRegex(dtrace.UsdtError, "invalid probe function or name"):
            p.probe("bad name", int)
        q = p.probe("q", int, str)
        with self.assertRaisesRegex(dtrace.UsdtError, "probe q"):
            p.probe("q", int)
        with self.assertRaisesRegex(dtrace.UsdtError, "invalid"):
            dtrace.Provider("no spaces")
        with self.assertRaisesRegex(TypeError, "fire_lazy.. takes a callable"):
            q.fire_lazy(3)
        p.destroy()
        with self.assertRaisesRegex(dtrace.UsdtError, "destroyed"):
            p.enable()
        self.assertEqual(repr(q), "<dtrace.Probe pyerr:::q>")


if __name__ == "__main__":
    unittest.main()
