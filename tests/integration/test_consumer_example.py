"""examples/consumer: a C consumer of the records API (dtrace_consume,
dtrace_aggregate_walk) that prints its own format, run on the example job
runner (24 jobs; those whose id is a multiple of 7 fail).

- one line per job-done firing: "CPU jobsPID:jobs:...:job-done: ID "NAME" STATUS"
  (arg0 traced as uint64_t, copyinstr(arg1), arg2 as int), each id once;
- then one line per aggregation entry: "@n 0 = 21", "@n 1 = 3", the
  lquantize of the ids as its non-empty buckets, "@all = 24".

Environment: CONSUMER (the example), JOBS (the job runner).
"""
import os
import re
import subprocess
import unittest

import tracelib

PROG = """
jobs$target:::job-done {
	trace(arg0); trace(copyinstr(arg1)); trace((int)arg2);
	@n[(int)arg2] = count();
	@ids = lquantize(arg0, 0, 30, 10);
	@all = count();
}
"""


class ConsumerExample(unittest.TestCase):
    def setUp(self):
        tracelib.require_tracing(self, tools=())

    def test_jobs(self):
        r = subprocess.run([os.environ["CONSUMER"], "-x", "quiet", "-c",
                            os.environ["JOBS"] + " 24", PROG],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        firings = re.findall(r'^\d+ jobs(\d+):jobs:\S+:job-done: (\d+) "([^"]*)" (-?\d+)$',
                             r.stdout, re.M)
        self.assertEqual(sorted(int(f[1]) for f in firings), list(range(1, 25)), r.stdout)
        for pid, jid, name, status in firings:
            self.assertEqual(int(status), 1 if int(jid) % 7 == 0 else 0)
            self.assertNotEqual(name, "")
        aggs = [l for l in r.stdout.splitlines() if l.startswith("@")]
        self.assertEqual(aggs, ["@n 1 = 3", "@n 0 = 21",
                                "@ids = [0..9]:9 [10..19]:10 [20..29]:5",
                                "@all = 24"], r.stdout)
        # nothing else: every line is a firing, an entry, or the job runner's own
        others = [l for l in r.stdout.splitlines()
                  if not l.startswith("@") and ":job-done: " not in l]
        self.assertEqual([l for l in others if not l.startswith("jobs: ran ")], [], r.stdout)
        self.assertEqual(len(r.stdout.splitlines()), 24 + 4 + len(others), r.stdout)


if __name__ == "__main__":
    unittest.main()
