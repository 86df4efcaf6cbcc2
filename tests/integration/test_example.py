"""The README's main job (scripts/dev example): examples/static/run.sh
traces the example job runner with our dtrace, every job reported once and
the totals agreeing; then examples/minilang/run.sh shows the mini
language end to end: its probes, calls by function (fib 177 a request),
the flow, one request's system calls.

Environment: BUILD_DIR (the build tree), EXAMPLE (examples/static/run.sh),
MINILANG (examples/minilang/run.sh).
"""
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import tracelib  # noqa: E402


class Example(unittest.TestCase):
    def test_run_sh_reports_every_job(self):
        tracelib.require_tracing(self)
        p = subprocess.run([os.environ["EXAMPLE"], os.environ["BUILD_DIR"]],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        jobs = re.findall(r"^job +(\d+) (\S+) +status (\d)", p.stdout, re.M)
        self.assertEqual(sorted(int(j[0]) for j in jobs), list(range(1, 25)))
        failed = sum(int(j[2]) for j in jobs)
        self.assertIn("jobs done: 24, failed: %d" % failed, p.stdout)
        # the quantize of the durations counts every job
        counts = re.findall(r"^ +\d+ \|@* +(\d+) *$", p.stdout, re.M)
        self.assertEqual(sum(map(int, counts)), 24)
        # dtrace -l -c lists the probes, and bpftrace lists the same
        listed = re.findall(r"^ +\d+ +jobs\d+ +jobs +\w+ (\S+)$", p.stdout, re.M)
        self.assertEqual(sorted(listed), ["job-done", "job-queued", "job-start", "queue-stats"])
        for probe in ("job__queued", "job__start", "job__done", "queue__stats"):
            self.assertIn(":jobs:" + probe, p.stdout)


    def test_minilang_run_sh(self):
        tracelib.require_tracing(self, tools=())
        p = subprocess.run([os.environ["MINILANG"], os.environ["BUILD_DIR"]],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        listed = re.findall(r"^ +\d+ +mini\d+ +mini +\w+ (\S+)$", p.stdout, re.M)
        self.assertEqual(sorted(listed), ["compile-done", "compile-start", "function-entry",
                                          "function-return", "request-done", "request-start"])
        calls = dict(re.findall(r"^(\w+) +\S+\.mini +(\d+)$", p.stdout, re.M))
        self.assertEqual(calls, {"main": "3", "slow": "3", "sum": "3", "fib": "531"}, p.stdout)
        self.assertIn("-> main (app.mini:2)\n  -> fib (lib.mini:2)\n", p.stdout)
        self.assertRegex(p.stdout, r"(?m)^request 1: status 0, \d+ us, compiling \d+ us$")
        self.assertRegex(p.stdout, r"(?m)^request 1 write +2$")


if __name__ == "__main__":
    unittest.main()
