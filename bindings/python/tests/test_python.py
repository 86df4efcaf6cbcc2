"""The Python binding's providers, traced for real by our dtrace.

A child /usr/bin/python3 declares a provider with dtrace.Provider, waits
until a tracer has enabled its probe (Probe.enabled), fires known values and
exits; dtrace -c runs it and must print exactly those values and counts.

Environment: DTRACE (our dtrace), PYTHONPATH (the build tree's package),
TRACELIB (tests/integration, for tracelib).
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
import textwrap
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
    while not {wait}.enabled:
        if time.monotonic() > deadline:
            sys.exit("no tracer came")
        time.sleep(0.005)
    """)


class Traced(unittest.TestCase):
    def setUp(self):
        tracelib.require_tracing(self, tools=())

    def run_traced(self, probes, wait, body, d, timeout=120):
        src = PROLOGUE.format(probes=probes, wait=wait) + textwrap.dedent(body)
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
            f.write(src)
        # a sanitizer build preloads its runtime for the extension: the
        # child Python needs it, our (statically sanitized) dtrace must not
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
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("drop", p.stderr)
        return p.stdout

    def test_typed_arguments_arrive_exactly(self):
        out = self.run_traced(
            'tick = p.probe("tick", int, str, float, "uint8", dict)', "tick",
            """\
            for i in range(100):
                tick.fire(-i, "name%d" % i, i / 4, 250 + i % 6, {"i": i, "s": "x\\"y"})
            """,
            'pyprov$target:::tick { printf("%d %s %d %d %s\\n", arg0, copyinstr(arg1), '
            'arg2, arg3, copyinstr(arg4)); }')
        lines = [l for l in out.splitlines() if l]  # dtrace ends with a blank line
        self.assertEqual(len(lines), 100, out[-500:])
        for i, line in enumerate(lines):
            a0, a1, a2, a3, a4 = line.split(" ", 4)
            self.assertEqual(int(a0), -i)
            self.assertEqual(a1, "name%d" % i)
            self.assertEqual(struct.unpack("<d", struct.pack("<q", int(a2)))[0], i / 4)
            self.assertEqual(int(a3), (250 + i % 6) & 0xff)
            self.assertEqual(json.loads(a4), {"i": i, "s": 'x"y'})

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
        self.assertIn("lazy calls 50", out)
        self.assertIn("count 50 sum 350", out)

    def test_function_decorator_counts_calls(self):
        out = self.run_traced(
            textwrap.dedent("""\
            @p.function
            def work(x):
                return x * 2
            @p.function(name="named")
            def other():
                raise ValueError
            """), "work.entry_probe",
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
        self.assertIn("total 870", out)
        for want in ("work-entry 30", "work-return 30", "named-entry 5", "named-return 5"):
            self.assertIn(want, out)

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
        self.assertIn("fires 1020000", out)
        grew = int(out.split("grew ")[1].split()[0])
        self.assertLess(grew, 1 << 20, "RSS grew by %d bytes" % grew)


class Runtime(unittest.TestCase):
    """python_rt: function-entry/-return of every Python function."""

    def setUp(self):
        tracelib.require_tracing(self, tools=())

    def run_program(self, body, d, timeout=120):
        src = "import sys, threading, dtrace\n" + textwrap.dedent(body)
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
            f.write(src)
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
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("drop", p.stderr)
        return f.name, p.stdout

    def test_known_call_counts_file_and_line(self):
        # f: 1000 direct calls, 300 from g (Python to Python: inlined by
        # 3.11's interpreter, still reported), 7 through map (entered from
        # C); one call raises (its return still fires); a thread started
        # while traced gets the hook before its 50 calls
        path, out = self.run_program("""\
            dtrace.runtime.start(interval=0.01)
            if not dtrace.runtime.wait_active(10):
                sys.exit("no tracer came")
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
        # def f is on line 5 of the program, its returns on 7 (raise) and 8
        self.assertEqual(lines, sorted([
            "f %s 5 %d" % (path, 1000 + 300 + 7 + 1 + 50),
            "g %s 9 1" % path,
            "ret 7 1",
            "ret 8 %d" % (1000 + 300 + 7 + 50)]), out)

    def test_no_hook_while_untraced(self):
        # the probes exist, nobody traces them: no profile function, and
        # sys.setprofile users are left alone
        code = textwrap.dedent("""\
            import sys, time, dtrace
            dtrace.runtime.start(interval=0.01)
            time.sleep(0.2)
            assert dtrace.runtime.running
            assert not dtrace.runtime.active and not dtrace.runtime.hooked
            assert sys.getprofile() is None
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
            "start(): the runtime provider is already started",
            "start(): interval must be 0.001 to 60 seconds"])

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


class Untraced(unittest.TestCase):
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
