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
