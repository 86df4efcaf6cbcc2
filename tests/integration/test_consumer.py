"""The consumer, against the trigger of tests/d/trace (built here with our
-h/-G), which fires trig:::tick(i, name, i*i) for i in 0..N-1.

Data integrity: every record the probes make is either printed or reported
lost.  With a small principal buffer the consumer cannot keep up with a
tight loop, and the lines printed plus the drops reported ("dtrace: N drops
on CPU M") must equal N, exactly, at every buffer size.

Structured output: with -x oformat=json every line is one JSON object;
records and aggregation entries are checked against values computed here.

Environment: DTRACE (our dtrace).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import tracelib

DTRACE = os.environ.get("DTRACE", "dtrace")
TRIGGER_SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "d", "trace")
EVENTS = 200000


class TriggerTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="dt-integrity-")
        for f in ("trigger.c", "trigger.d", "build.sh"):
            shutil.copy(os.path.join(TRIGGER_SRC, f), cls.dir)
        subprocess.run(["sh", "build.sh"], cwd=cls.dir, check=True,
                       env=dict(os.environ, DTRACE=DTRACE))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def setUp(self):
        tracelib.require_tracing(self, tools=())

    def dtrace(self, args, timeout=120, pin=False):
        """pin: dtrace and its -c child on CPU 0"""
        p = subprocess.run((["taskset", "-c", "0"] if pin else []) + [DTRACE] + args,
                           cwd=self.dir, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=timeout)
        return p


class Drops(TriggerTest):
    def run_ticks(self, bufsize):
        # at 4k a record takes half the buffer (a 2 KB string slot): a
        # consumer on the other CPU kept up with small records (no drop, in
        # the clean-clone CI's sanitizer pass)
        big = bufsize == "4k"
        clause = ('trig$target:::tick { printf("%d %s\\n", arg0, copyinstr(arg1)); }' if big
                  else 'trig$target:::tick { printf("%d\\n", arg0); }')
        p = subprocess.run(
            [DTRACE, "-q", "-x", "bufsize=" + bufsize] + (["-x", "strsize=2048"] if big else []) +
            ["-n", clause, "-c", "./trigger %d" % EVENTS],
            cwd=self.dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        values = [int(line.split()[0]) for line in p.stdout.splitlines() if line]
        drops = 0
        for line in p.stderr.splitlines():
            m = re.fullmatch(r"dtrace: (\d+) drops? on CPU (\d+)", line)
            self.assertIsNotNone(m, "unexpected message: " + line)
            drops += int(m.group(1))
        return values, drops

    def test_printed_plus_dropped_is_fired_at_every_bufsize(self):
        for bufsize in ("4k", "16k", "64k", "1m", "8m"):
            with self.subTest(bufsize=bufsize):
                values, drops = self.run_ticks(bufsize)
                # no record printed twice, none invented
                self.assertEqual(len(set(values)), len(values))
                self.assertTrue(all(0 <= v < EVENTS for v in values))
                self.assertEqual(len(values) + drops, EVENTS,
                                 "%d printed + %d dropped" % (len(values), drops))
                if bufsize == "4k":
                    # one page holds 1 record; 200000 in a tight loop
                    # outrun any consumer
                    self.assertGreater(drops, 0)

    def test_dynamic_variable_drops_add_up(self):
        # a second clause counts the stores that took; the rest are drops
        n = 2000
        p = subprocess.run(
            [DTRACE, "-q", "-x", "dynvarsize=16k", "-n",
             "trig$target:::tick { a[arg0] = arg0 + 1; } "
             "trig$target:::tick /a[arg0] != 0/ { @stored = count(); } "
             'END { printa("%@d\\n", @stored); }',
             "-c", "./trigger %d" % n],
            cwd=self.dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        stored = int(p.stdout.split()[0])
        drops = sum(int(m) for m in re.findall(r"dtrace: (\d+) dynamic variable drops?",
                                                p.stderr))
        self.assertGreater(drops, 0, p.stderr)
        self.assertGreater(stored, 0)
        self.assertEqual(stored + drops, n, p.stderr)


class Speculations(TriggerTest):
    """Speculative tracing loses nothing: every firing's speculation is
    either committed and printed once, or reported (failed speculations,
    speculative drops, principal drops), exactly."""

    def test_committed_plus_failed_is_fired(self):
        n = 20000
        for nspec in ("1", "4"):
            with self.subTest(nspec=nspec):
                # one CPU: commits print in the order their CPU's buffer is
                # read, so a trigger that moved CPUs would print out of order
                p = self.dtrace(
                    ["-q", "-x", "nspec=" + nspec, "-x", "bufsize=8m", "-n",
                     "trig$target:::tick { self->s = speculation(); } "
                     'trig$target:::tick { speculate(self->s); printf("%d\\n", arg0); } '
                     "trig$target:::tick { commit(self->s); }",
                     "-c", "./trigger %d" % n], pin=True)
                self.assertEqual(p.returncode, 0, p.stderr)
                values = [int(v) for v in p.stdout.split()]
                failed = 0
                for line in p.stderr.splitlines():
                    m = re.fullmatch(r"dtrace: (\d+) failed speculations? \((no speculative "
                                     r"buffer available|available buffer\(s\) still busy)\)",
                                     line)
                    self.assertIsNotNone(m, "unexpected message: " + line)
                    failed += int(m.group(1))
                self.assertEqual(values, sorted(set(values)))  # once each, in order
                self.assertTrue(all(0 <= v < n for v in values))
                self.assertGreater(len(values), 0)
                self.assertEqual(len(values) + failed, n,
                                 "%d committed + %d failed" % (len(values), failed))

    def test_records_of_every_cpu_are_committed(self):
        # one speculation filled on every CPU, committed by a tick on one:
        # each CPU's records (numbered by a counter only that CPU writes)
        # print once each, in order, none missing before the last.  A
        # spinner on each CPU keeps it busy: an idle CPU here takes few
        # profile samples (a CI run once saw one sample on one CPU).
        spinners = [subprocess.Popen(["taskset", "-c", str(c), sys.executable, "-c",
                                      "while True: pass"])
                    for c in range(os.cpu_count())]
        try:
            p = self.dtrace(
                ["-q", "-n",
                 "BEGIN { s = speculation(); done = 0; n = 0; } "
                 'profile-997hz /!done/ { speculate(s); printf("%d %d\\n", cpu, ++seq[cpu]); } '
                 "tick-300ms /!done/ { done = 1; commit(s); } "
                 "tick-300ms /done && n++ == 2/ { exit(0); }"])
        finally:
            for sp in spinners:
                sp.kill()
                sp.wait()
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, "")
        per_cpu = {}
        for line in p.stdout.split("\n"):
            if line:
                cpu, v = (int(x) for x in line.split())
                per_cpu.setdefault(cpu, []).append(v)
        self.assertGreater(len(per_cpu), 0)
        if os.cpu_count() > 1:
            self.assertGreater(len(per_cpu), 1, p.stdout[:200])
        for cpu, vs in per_cpu.items():
            self.assertEqual(vs, list(range(1, len(vs) + 1)), "CPU %d" % cpu)


def quantize_bucket(x):
    if x == 0:
        return (0, 0)
    k = abs(x).bit_length() - 1
    lo, hi = 1 << k, (1 << (k + 1)) - 1
    return (lo, hi) if x > 0 else (-hi, -lo)


def lquantize_bucket(x, base, limit, step):
    levels = (limit - base) // step
    if x < base:
        return (None, base - 1)
    if x >= base + levels * step:
        return (base + levels * step, None)
    b = (x - base) // step
    return (base + b * step, base + (b + 1) * step - 1)


def llquantize_bucket(x, factor, low, high, steps):
    """llquantize for steps == factor: each order of magnitude in steps
    buckets of equal width (the case where no bucket is merged)."""
    if x < factor ** low:
        return (None, factor ** low - 1)
    if x >= factor ** (high + 1):
        return (factor ** (high + 1), None)
    order = low
    while x >= factor ** (order + 1):
        order += 1
    width = factor ** (order + 1) // steps
    lo = x // width * width
    return (lo, lo + width - 1)


def buckets(values, fn):
    out = {}
    for v in values:
        b = fn(v)
        out[b] = out.get(b, 0) + 1
    return out


class Json(TriggerTest):
    N = 12

    def run_json(self, script, extra=()):
        p = self.dtrace(["-x", "oformat=json"] + list(extra) +
                        ["-n", script, "-c", "./trigger %d" % self.N])
        self.assertEqual(p.returncode, 0, p.stderr)
        objs = [json.loads(line) for line in p.stdout.splitlines()]
        return objs, p

    def test_records_carry_probe_and_data(self):
        objs, _ = self.run_json('trig$target:::tick { trace(arg0); '
                                'printf("%s=%d", copyinstr(arg1), arg2); }', ["-q"])
        self.assertEqual(len(objs), self.N)
        names = ["alpha", "beta", "gamma"]
        # by arg0: the trigger may move between CPUs, whose buffers come in turn
        objs.sort(key=lambda o: o["data"][0]["value"])
        for i, o in enumerate(objs):
            self.assertEqual(o["type"], "probe")
            self.assertRegex(o["provider"], r"^trig\d+$")
            self.assertEqual((o["module"], o["function"], o["name"]),
                             ("trigger", "main", "tick"))
            self.assertIsInstance(o["cpu"], int)
            self.assertEqual(o["data"], [
                {"action": "trace", "value": i},
                {"action": "printf", "value": "%s=%d" % (names[i % 3], i * i)}])

    def test_aggregation_entries_match_computed_values(self):
        n = self.N
        objs, _ = self.run_json(
            "trig$target:::tick { @c[copyinstr(arg1)] = count(); @s[arg0 % 3] = sum(arg2); "
            "@a = avg(arg2); @mn = min(arg2); @mx = max(arg2); @sd = stddev(arg2); "
            "@q = quantize(arg2 - 50); @l = lquantize(arg2, 0, 100, 25); "
            "@ll = llquantize(arg2, 10, 0, 2, 10); }", ["-q"])
        sq = [i * i for i in range(n)]
        got = {}
        order = {}
        for o in objs:
            self.assertEqual(o["type"], "aggregation", o)
            key = (o["name"], tuple(o["keys"]))
            self.assertNotIn(key, got)
            got[key] = o
            order.setdefault(o["name"], []).append(o)
        names = ["alpha", "beta", "gamma"]
        for nm in names:
            self.assertEqual(got[("c", (nm,))]["value"], sum(1 for i in range(n) if i % 3 == names.index(nm)))
            self.assertEqual(got[("c", (nm,))]["function"], "count")
        for r in range(3):
            self.assertEqual(got[("s", (r,))]["value"], sum(v for i, v in enumerate(sq) if i % 3 == r))
        # entries come sorted by value, as dtrace(1) prints them
        svals = [o["value"] for o in order["s"]]
        self.assertEqual(svals, sorted(svals))
        self.assertEqual(got[("a", ())]["value"], sum(sq) // n)
        self.assertEqual(got[("mn", ())]["value"], min(sq))
        self.assertEqual(got[("mx", ())]["value"], max(sq))
        mean = sum(sq) // n
        self.assertEqual(got[("sd", ())]["value"],
                         int((sum(v * v for v in sq) // n - mean * mean) ** 0.5))
        for name, fn in (("q", lambda v: quantize_bucket(v - 50)),
                         ("l", lambda v: lquantize_bucket(v, 0, 100, 25)),
                         ("ll", lambda v: llquantize_bucket(v, 10, 0, 2, 10))):
            want = buckets(sq, fn)
            have = {(b["min"], b["max"]): b["count"] for b in got[(name, ())]["buckets"]}
            self.assertEqual(have, want, name)

    def test_drops_are_objects_too(self):
        events = 200000
        # a record takes half the 4k buffer (a 2 KB string slot): drops are
        # certain (with trace(arg0) alone the consumer kept up in a run here)
        p = self.dtrace(["-x", "oformat=json", "-q", "-x", "bufsize=4k", "-x", "strsize=2048",
                         "-n", 'trig$target:::tick { trace(arg0); trace(copyinstr(arg1)); }',
                         "-c", "./trigger %d" % events])
        self.assertEqual(p.returncode, 0, p.stderr)
        records = drops = 0
        for line in p.stdout.splitlines():
            o = json.loads(line)
            if o["type"] == "probe":
                records += 1
            else:
                self.assertEqual((o["type"], o["kind"]), ("drop", "principal"), o)
                drops += o["count"]
        text = sum(int(m) for m in re.findall(r"dtrace: (\d+) drops? on CPU", p.stderr))
        self.assertGreater(drops, 0)
        self.assertEqual(drops, text)
        self.assertEqual(records + drops, events)


if __name__ == "__main__":
    unittest.main()
