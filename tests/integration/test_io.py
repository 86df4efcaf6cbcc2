"""The io provider against bpftrace's block tracepoints (the independent
oracle): the requests io:::start and io:::done see on a file's blocks are
the ones tracepoint:block:block_rq_issue and block_rq_complete see, in
number, direction and bytes.

The file is made under /var/tmp (tests/d/io/iotrig.c: prep, then write:
16 O_DIRECT writes of 64 KiB, fsync, one O_DIRECT read), and both tracers
count the requests whose first sector falls in its blocks, whichever
thread issues them.  Skipped when /var/tmp is not on a block device.

Environment: DTRACE_BIN (our dtrace).
"""
import os
import re
import stat
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import tracelib  # noqa: E402

DTRACE = os.environ.get("DTRACE_BIN", "dtrace")
IOTRIG_C = os.path.join(os.path.dirname(__file__), "..", "d", "io", "iotrig.c")
N, SIZE = 16, 65536


def on_block_device(path):
    """Is path's file system on a block device (ext4 on /dev/vda, not tmpfs)?"""
    src = subprocess.run(["df", "--output=source", path], stdout=subprocess.PIPE,
                         text=True).stdout.split()
    try:
        return bool(src) and stat.S_ISBLK(os.stat(src[-1]).st_mode)
    except OSError:
        return False


class IoOracle(unittest.TestCase):
    def setUp(self):
        tracelib.require_tracing(self)
        if not on_block_device("/var/tmp"):
            self.skipTest("/var/tmp is not on a block device")
        self.tmp = tempfile.TemporaryDirectory()
        self.iotrig = os.path.join(self.tmp.name, "iotrig")
        tracelib.run(["cc", "-O2", "-o", self.iotrig, IOTRIG_C])
        fd, self.path = tempfile.mkstemp(prefix="dtrace-io-oracle.", dir="/var/tmp")
        os.close(fd)

    def tearDown(self):
        if os.path.exists(self.path):
            os.unlink(self.path)
        self.tmp.cleanup()

    def test_start_and_done_match_the_block_tracepoints(self):
        out = tracelib.run([self.iotrig, "prep", self.path, str(N), str(SIZE)]).stdout.split()
        lo, hi = int(out[0]), int(out[0]) + int(out[1])
        self.assertEqual(int(out[1]), N * SIZE // 512)

        prog = ('BEGIN { printf("ready\\n"); } '
                'io:::start, io:::done /args[0]->b_blkno >= %d && args[0]->b_blkno < %d/ { '
                '@n[probename, args[0]->b_flags & B_WRITE ? "W" : "R"] = count(); '
                '@b[probename, args[0]->b_flags & B_WRITE ? "W" : "R"] = '
                'sum(args[0]->b_bcount); } '
                'END { printa("%%s %%s %%@d\\n", @n); printa("%%s %%s bytes %%@d\\n", @b); }'
                % (lo, hi))
        d = subprocess.Popen([DTRACE, "-q", "-n", prog], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        try:
            tracelib.wait_for_line(d, "ready", timeout=60)
            bt = ('tracepoint:block:block_rq_issue, tracepoint:block:block_rq_complete '
                  '/args->sector >= %d && args->sector < %d/ { '
                  '@n[probe, args->rwbs] = count(); @b[probe, args->rwbs] = sum(args->nr_sector); }'
                  % (lo, hi))
            lines, _ = tracelib.bpftrace_while(
                bt, cmd=[self.iotrig, "write", self.path, str(N), str(SIZE)])
            d.send_signal(2)
            dout, derr = d.communicate(timeout=60)
        finally:
            if d.poll() is None:
                d.kill()
                d.wait()
        self.assertEqual(d.returncode, 0, derr)

        # bpftrace: @n[tracepoint:block:block_rq_issue, WS]: 16
        oracle = {}
        for l in lines:
            m = re.match(r"@(n|b)\[tracepoint:block:block_rq_(issue|complete), (\w+)\]: (\d+)", l)
            if m:
                probe = "start" if m.group(2) == "issue" else "done"
                rw = "W" if "W" in m.group(3) else "R"
                key = (m.group(1), probe, rw)
                value = int(m.group(4)) * (512 if m.group(1) == "b" else 1)
                oracle[key] = oracle.get(key, 0) + value
        ours = {}
        for l in dout.splitlines():
            f = l.split()
            if len(f) == 3:
                ours[("n", f[0], f[1])] = int(f[2])
            elif len(f) == 4 and f[2] == "bytes":
                ours[("b", f[0], f[1])] = int(f[3])
        self.assertEqual(ours, oracle, "dtrace:\n%s\nbpftrace:\n%s" % (dout, "\n".join(lines)))
        # the writes were not merged: each is one request of SIZE bytes
        self.assertEqual(ours[("n", "start", "W")], N, dout)
        self.assertEqual(ours[("b", "start", "W")], N * SIZE, dout)
        self.assertEqual(ours[("n", "start", "R")], 1, dout)
        self.assertEqual(ours[("b", "done", "R")], SIZE, dout)


if __name__ == "__main__":
    unittest.main()
