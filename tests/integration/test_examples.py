"""The examples of examples/, built with the project, traced by their D
scripts with the counts they must give.

queryserver: qserver serves under dtrace -c; a client sends queries.txt
(10 queries: 3 PUT, 4 GET of which 3 find their key, SCAN ap finding 2,
SLEEP 300, one unknown) on one connection, then SHUTDOWN on another.

minilang: mini runs app.mini and lib.mini for 3 requests: fib(10) is 177
calls a request, main, sum and slow one each; each request makes 2 writes,
1 clock_nanosleep and 2 openat; flow.d's -> and <- balance.

bytecodevm: vm 1000 calls Math.square 2000 times and Point.<init> 1000,
allocates 1000 Points (24 bytes) and 250 Lines (40); its collections free
what the program does not hold: the objects allocated less the live ones
it prints.

(examples/runtimes: test_runtimes.py, registered with the bindings.)

Environment: DTRACE (our dtrace), QSERVER (build/examples/queryserver/qserver),
MINI (build/examples/minilang/mini), VM (build/examples/bytecodevm/vm).
"""
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import tracelib  # noqa: E402

DTRACE = os.environ.get("DTRACE", "dtrace")
QSERVER = os.environ.get("QSERVER", "qserver")
MINI = os.environ.get("MINI", "mini")
VM = os.environ.get("VM", "vm")
EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples")


def trace_file(test):
    """A file for dtrace -o, removed after the test.  dtrace's -c child
    writes to the same stdout as dtrace: on one pipe a line of the child
    can land inside a line of dtrace's, wherever stdio's buffer was
    flushed (test_flow once saw a line lose two columns), so the tests
    read dtrace's output from its own file."""
    fd, path = tempfile.mkstemp(prefix="dtrace-out.")
    os.close(fd)
    test.addCleanup(os.unlink, path)
    return path


def read(path):
    with open(path) as f:
        return f.read()


class QueryServer(unittest.TestCase):
    def setUp(self):
        tracelib.require_tracing(self, tools=())
        self.tmp = tempfile.TemporaryDirectory()
        self.sock = os.path.join(self.tmp.name, "q.sock")

    def tearDown(self):
        self.tmp.cleanup()

    def client(self, text):
        r = subprocess.run([QSERVER, "-c", self.sock], input=text, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout

    def traced(self, name, *args):
        """dtrace -qs NAME ARGS -c 'qserver SOCK' while the client sends
        queries.txt, then SHUTDOWN: dtrace's output and the answers."""
        outf = trace_file(self)
        d = subprocess.Popen([DTRACE, "-q", "-o", outf,
                              "-s", os.path.join(EXAMPLES, "queryserver", name)]
                             + list(args) + ["-c", "%s %s" % (QSERVER, self.sock)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=tracelib.untraced_env())
        try:
            for _ in range(200):  # the server is up once its socket is there
                if os.path.exists(self.sock) or d.poll() is not None:
                    break
                time.sleep(0.05)
            with open(os.path.join(EXAMPLES, "queryserver", "queries.txt")) as f:
                answers = self.client(f.read())
            self.client("SHUTDOWN\n")
            _, err = d.communicate(timeout=60)
        finally:
            if d.poll() is None:
                d.kill()
                d.communicate()
        self.assertEqual(d.returncode, 0, err)
        return read(outf), answers

    def test_answers(self):
        out, answers = self.traced("top.d")
        self.assertEqual(answers.splitlines(), ["OK 1", "OK 1", "OK 1", "OK 1", "OK 1", "OK 0",
                                                "OK 2", "OK 0", "ERR unknown query BOGUS",
                                                "OK 1"])

    def test_latency(self):
        out, _ = self.traced("latency.d")
        rows = {m[0]: tuple(map(int, m[1:])) for m in
                re.findall(r"^(\w+)\s+(\d+)\s+(\d+)\s+(\d+)$", out, re.M)}
        self.assertEqual(rows, {"PUT": (3, 0, 3), "GET": (4, 0, 3), "SCAN": (1, 0, 2),
                                "SLEEP": (1, 0, 0), "BOGUS": (1, 1, 0), "SHUTDOWN": (1, 0, 0)},
                         out)
        # SLEEP 300's bucket: 262144 us
        self.assertRegex(out, r"SLEEP\s*\n\s+value.*\n(?:.*\n)*?\s+262144 \|@+ 1")

    def test_top(self):
        out, _ = self.traced("top.d")
        queries = dict((q, int(n)) for n, q in re.findall(r"^\s+(\d+)  (.*)$", out, re.M))
        self.assertEqual(queries["GET apple"], 2, out)
        self.assertEqual(len(queries), 10, out)  # queries.txt's 9 texts and SHUTDOWN
        conns = sorted(int(n) for n in re.findall(r"^conn \d+: (\d+) queries$", out, re.M))
        self.assertEqual(conns, [1, 10], out)

    def test_slow(self):
        out, _ = self.traced("slow.d", "200")
        rows = re.findall(r"^\s*(\d+) ms  conn \d+  query (\d+): (.*)$", out, re.M)
        self.assertEqual(len(rows), 1, out)
        self.assertEqual(rows[0][1:], ("8", "SLEEP 300"))
        self.assertGreaterEqual(int(rows[0][0]), 300)


class MiniLang(unittest.TestCase):
    def setUp(self):
        tracelib.require_tracing(self, tools=())
        d = os.path.join(EXAMPLES, "minilang")
        self.cmd = lambda n: "%s -n %d %s %s" % (MINI, n, os.path.join(d, "app.mini"),
                                                 os.path.join(d, "lib.mini"))

    def traced(self, name, n, one_cpu=False):
        # one_cpu: dtrace prints each CPU's buffer in turn, as illumos does, so
        # the records of a thread that moved to another CPU meanwhile come out
        # of order; an order that the test checks line by line needs one CPU
        # (dtrace's, which its -c child inherits)
        pin = ["taskset", "-c", "0"] if one_cpu else []
        outf = trace_file(self)
        r = subprocess.run(pin + [DTRACE, "-q", "-o", outf, "-s",
                                  os.path.join(EXAMPLES, "minilang", name), "-c", self.cmd(n)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=120, env=tracelib.untraced_env())
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.count("fib(10) = 55\n"), n, r.stdout)
        return read(outf)

    def test_calls(self):
        out = self.traced("calls.d", 3)
        rows = {(f, m): int(c) for f, m, c in
                re.findall(r"^(\w+)\s+(\S+\.mini)\s+(\d+)$", out, re.M)}
        self.assertEqual(rows, {("main", "app.mini"): 3, ("slow", "app.mini"): 3,
                                ("sum", "lib.mini"): 3, ("fib", "lib.mini"): 531}, out)

    def test_flow(self):
        out = self.traced("flow.d", 1, one_cpu=True)
        lines = [l for l in out.splitlines() if "-> " in l or "<- " in l]
        self.assertEqual(len(lines), 2 * 180, out[-2000:])
        self.assertEqual(lines[0], "-> main (app.mini:2)")
        self.assertEqual(lines[1], "  -> fib (lib.mini:2)")
        self.assertEqual(lines[-1], "<- main")
        depth = 0
        for l in lines:  # each line indented by its depth
            if "-> " in l:
                self.assertEqual(len(l) - len(l.lstrip()), 2 * depth, l)
                depth += 1
            else:
                depth -= 1
                self.assertEqual(len(l) - len(l.lstrip()), 2 * depth, l)
        self.assertEqual(depth, 0)

    def test_latency(self):
        out = self.traced("latency.d", 2)
        for f, n in (("main", 2), ("slow", 2), ("sum", 2), ("fib", 354)):
            m = re.search(r"^  %s\s*\n\s+value.*\n((?:\s+-?\d+ \|.*\n)+)" % f, out, re.M)
            self.assertIsNotNone(m, out)
            self.assertEqual(sum(int(x) for x in re.findall(r"\| *[@ ]* (\d+)\s*$",
                                                              m.group(1), re.M)), n, f)
        # slow() sleeps 50 ms: its bucket is 32768 us
        self.assertRegex(out, r"  slow\s*\n\s+value.*\n(?:.*\n)*?\s+32768 \|@+ 2")

    def test_request_syscalls(self):
        out = self.traced("request_syscalls.d", 2)
        self.assertEqual(len(re.findall(r"^request [12]: status 0, \d+ us, compiling \d+ us$",
                                        out, re.M)), 2, out)
        calls = {(int(r), f): int(c) for r, f, c in
                 re.findall(r"^request (\d+) (\w+)\s+(\d+)$", out, re.M)}
        for req in (1, 2):
            self.assertEqual(calls.get((req, "write")), 2, out)
            self.assertEqual(calls.get((req, "clock_nanosleep")), 1, out)
            self.assertEqual(calls.get((req, "openat")), 2, out)


class BytecodeVM(unittest.TestCase):
    def setUp(self):
        tracelib.require_tracing(self, tools=())

    def traced(self, name, n=1000):
        outf = trace_file(self)
        r = subprocess.run([DTRACE, "-q", "-o", outf, "-s",
                            os.path.join(EXAMPLES, "bytecodevm", name), "-c", "%s %d" % (VM, n)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=120, env=tracelib.untraced_env())
        self.assertEqual(r.returncode, 0, r.stderr)
        m = re.search(r"^result (\d+), (\d+) objects live$", r.stdout, re.M)
        self.assertIsNotNone(m, r.stdout)
        self.assertEqual(int(m.group(1)), sum(i * i + (i + 1) * (i + 1) for i in range(n)))
        return read(outf), int(m.group(2))

    def test_methods(self):
        out, _ = self.traced("methods.d")
        rows = {(c, m): int(n) for c, m, n in
                re.findall(r"^(\w+)\s+(\S+)\s+(\d+)\s+\d+$", out, re.M)}
        self.assertEqual(rows, {("Main", "main"): 1, ("Point", "<init>"): 1000,
                                ("Math", "square"): 2000}, out)

    def test_alloc(self):
        out, _ = self.traced("alloc.d")
        rows = {c: (int(n), int(b)) for c, n, b in
                re.findall(r"^(\w+)\s+(\d+)\s+(\d+)$", out, re.M)}
        self.assertEqual(rows, {"Point": (1000, 24000), "Line": (250, 10000)}, out)

    def test_gc(self):
        out, live = self.traced("gc.d")
        m = re.search(r"^collections (\d+), freed (\d+)$", out, re.M)
        self.assertIsNotNone(m, out)
        self.assertGreater(int(m.group(1)), 0)
        self.assertEqual(int(m.group(2)), 1250 - live, out)  # all but what is live at the end
        self.assertIn("live after a collection: at most 1\n", out)
        out, live = self.traced("gc.d", 10)  # 13 objects: the heap never fills
        self.assertNotIn("collections", out)
        self.assertEqual(live, 13)


if __name__ == "__main__":
    unittest.main()
