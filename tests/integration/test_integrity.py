"""Data integrity: every record the probes make is either printed or
reported lost.  The trigger of tests/d/trace (built here with our -h/-G)
fires trig:::tick N times in a tight loop; with a small principal buffer
the consumer cannot keep up, and the lines printed plus the drops reported
("dtrace: N drops on CPU M") must equal N, exactly, at every buffer size.

Environment: DTRACE (our dtrace).
"""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import tracelib

DTRACE = os.environ.get("DTRACE", "dtrace")
TRIGGER_SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "d", "trace")
EVENTS = 200000


class Integrity(unittest.TestCase):
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

    def run_ticks(self, bufsize):
        p = subprocess.run(
            [DTRACE, "-q", "-x", "bufsize=" + bufsize,
             "-n", 'trig$target:::tick { printf("%d\\n", arg0); }',
             "-c", "./trigger %d" % EVENTS],
            cwd=self.dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        values = [int(v) for v in p.stdout.split()]
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
                    # one page holds ~100 records; 200000 in a tight loop
                    # outrun any consumer
                    self.assertGreater(drops, 0)


if __name__ == "__main__":
    unittest.main()
