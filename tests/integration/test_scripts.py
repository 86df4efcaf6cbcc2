"""examples/scripts: the ready scripts for real software, run against it.

PostgreSQL 15 (Debian's postgresql-15): a throwaway cluster (initdb in a
temporary directory, run as the postgres user, on a Unix socket only,
autovacuum off so that no transaction but ours runs), then each script
against pgbench or psql, with the counts the server must give:

- txn.d: the committed transactions of `pgbench -c 2 -t N` are what
  pgbench reports plus the known others (each connection's start-up and
  pgbench's own checks: measured with -t 1), and 100 more transactions a
  client are exactly 200 more commits.
- query_latency.d, top_queries.d, slow_queries.d: psql -f runs a file of
  five statements: five queries, three of them `SELECT 1;`, one slower
  than 200 ms.
- lock_waits.d: one session holds an ACCESS EXCLUSIVE lock on a table for
  a second while another reads it: one wait, on that table's OID, in
  AccessShareLock mode (1), of about the rest of that second.
- buffer_reads.d: a sequential scan of pgbench_accounts reads each of its
  blocks once: pg_relation_size / 8192 buffers of its relfilenode.

Python 3.11 (/usr/bin/python3.11, provider python): gc.d counts gc.collect()
calls (the difference between 5 and 9 explicit generation-2 collections is
4), imports.d names a module imported once. libstdc++: throws.d counts 7
throws from parse, 3 from lookup rethrown by again, and 13 catches.

Environment: DTRACE (our dtrace).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import tracelib  # noqa: E402

DTRACE = os.environ.get("DTRACE", "dtrace")
SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                       "scripts")
PGBIN = "/usr/lib/postgresql/15/bin"
PYTHON = "/usr/bin/python3.11"


def script(*parts):
    return os.path.join(SCRIPTS, *parts)


def dtrace(*args, timeout=120):
    r = subprocess.run([DTRACE, "-q", "-s"] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=timeout,
                       env=tracelib.untraced_env())
    if r.returncode != 0:
        raise AssertionError("dtrace %s: %d\n%s\n%s" % (args, r.returncode, r.stdout, r.stderr))
    return r.stdout


class PostgreSQL(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(os.path.join(PGBIN, "postgres"), os.X_OK):
            raise unittest.SkipTest("PostgreSQL 15 is not installed (%s/postgres): "
                                    "apt-get install postgresql-15" % PGBIN)
        cls.tmp = tempfile.mkdtemp(prefix="dtrace-pg-")
        shutil.chown(cls.tmp, "postgres")
        os.chmod(cls.tmp, 0o755)
        cls.data = os.path.join(cls.tmp, "data")
        cls.port = "54%03d" % (os.getpid() % 1000)
        cls.as_pg([os.path.join(PGBIN, "initdb"), "-D", cls.data, "-A", "trust", "-U",
                   "postgres"])
        cls.as_pg([os.path.join(PGBIN, "pg_ctl"), "-D", cls.data, "-w", "-l",
                   os.path.join(cls.tmp, "log"), "-o",
                   "-k %s -p %s -c listen_addresses='' -c autovacuum=off" % (cls.tmp, cls.port),
                   "start"])
        cls.started = True
        cls.as_pg(cls.pgbench() + ["-i", "-s", "1", "-q"])

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "started", False):
            cls.as_pg([os.path.join(PGBIN, "pg_ctl"), "-D", cls.data, "-m", "immediate", "stop"])
        if hasattr(cls, "tmp"):
            shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        tracelib.require_tracing(self, tools=())

    @classmethod
    def as_pg(cls, argv, **kw):
        r = subprocess.run(["runuser", "-u", "postgres", "--"] + argv, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=300, **kw)
        if r.returncode != 0:
            raise AssertionError("%s: %d\n%s\n%s" % (argv, r.returncode, r.stdout, r.stderr))
        return r.stdout

    @classmethod
    def pgbench(cls):
        return [os.path.join(PGBIN, "pgbench"), "-h", cls.tmp, "-p", cls.port, "-U", "postgres",
                "postgres"]

    @classmethod
    def psql(cls):
        return [os.path.join(PGBIN, "psql"), "-h", cls.tmp, "-p", cls.port, "-U", "postgres",
                "-X", "-q", "-t", "-A", "postgres"]

    def sh(self, name, text):
        """A shell script for dtrace -c (which splits its command at spaces)."""
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o755)
        return path

    def runuser(self, argv):
        return " ".join(["runuser", "-u", "postgres", "--"] + ["'%s'" % a for a in argv])

    def txn(self, t):
        cmd = self.sh("bench%d.sh" % t, self.runuser(self.pgbench() + ["-n", "-c", "2", "-t",
                                                                       str(t)]) + "\n")
        out = dtrace(script("postgresql", "txn.d"), "-c", cmd)
        done = int(re.search(r"actually processed: (\d+)/", out).group(1))
        m = re.search(r"transactions: (\d+) started, (\d+) committed, (\d+) aborted", out)
        self.assertIsNotNone(m, out)
        starts, commits, aborts = map(int, m.groups())
        self.assertEqual(starts, commits + aborts, out)
        self.assertEqual(aborts, 0, out)
        return done, commits

    def test_txn(self):
        done1, c1 = self.txn(1)
        done2, c2 = self.txn(101)
        self.assertEqual((done1, done2), (2, 202))
        others = c1 - done1  # each connection's start-up, pgbench's checks
        self.assertGreater(others, 0)
        self.assertEqual(c2, done2 + others)
        self.assertEqual(c2 - c1, 200)

    def queries(self, name, *args):
        sql = os.path.join(self.tmp, "q.sql")
        with open(sql, "w") as f:
            f.write("SELECT 1;\nSELECT 1;\nSELECT 1;\nSELECT 2;\nSELECT pg_sleep(0.3);\n")
        os.chmod(sql, 0o644)
        cmd = self.sh("q.sh", self.runuser(self.psql() + ["-f", sql]) + "\n")
        return dtrace(script("postgresql", name), *args, "-c", cmd)

    def test_query_latency(self):
        out = self.queries("query_latency.d")
        self.assertIn("queries: 5\n", out)
        counts = [int(m) for m in re.findall(r"^\s+\d+ \|[@ ]+(\d+)\s*$", out, re.M)]
        self.assertEqual(sum(counts), 5, out)

    def test_top_queries(self):
        out = self.queries("top_queries.d")
        rows = re.findall(r"^\s+(\d+)  (.*)$", out, re.M)
        self.assertIn(("3", "SELECT 1;"), rows, out)
        self.assertIn(("1", "SELECT 2;"), rows, out)
        self.assertIn(("1", "SELECT pg_sleep(0.3);"), rows, out)
        self.assertEqual(len(rows), 3, out)

    def test_slow_queries(self):
        out = self.queries("slow_queries.d", "200")
        rows = re.findall(r"^\s*(\d+) ms  pid (\d+)  (.*)$", out, re.M)
        self.assertEqual(len(rows), 1, out)
        self.assertEqual(rows[0][2], "SELECT pg_sleep(0.3);")
        self.assertGreaterEqual(int(rows[0][0]), 300)

    def test_lock_waits(self):
        oid = self.as_pg(self.psql() + ["-c", "SELECT 'pgbench_branches'::regclass::oid"]).strip()
        db = self.as_pg(self.psql() + ["-c", "SELECT oid FROM pg_database WHERE "
                                             "datname = 'postgres'"]).strip()
        hold = self.runuser(self.psql() + ["-c", "BEGIN; LOCK TABLE pgbench_branches IN ACCESS "
                                                 "EXCLUSIVE MODE; SELECT pg_sleep(2); COMMIT;"])
        read = self.runuser(self.psql() + ["-c", "SELECT count(*) FROM pgbench_branches"])
        cmd = self.sh("lock.sh", "%s &\nsleep 0.4\n%s\nwait\n" % (hold, read))
        out = dtrace(script("postgresql", "lock_waits.d"), "-c", cmd)
        rows = re.findall(r"^\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$", out, re.M)
        self.assertEqual(len(rows), 1, out)
        self.assertEqual(rows[0][:4], (db, oid, "1", "1"), out)
        # the reader starts 0.4 s after the holder, which holds the lock 2 s:
        # it waits about 1.6 s, whatever the two psql took to start
        self.assertGreater(int(rows[0][4]), 300000, out)
        self.assertLess(int(rows[0][4]), 5000000, out)

    def test_buffer_reads(self):
        blocks, node = self.as_pg(self.psql() + [
            "-c", "SELECT pg_relation_size('pgbench_accounts') / 8192, "
                  "pg_relation_filenode('pgbench_accounts')"]).strip().split("|")
        cmd = self.sh("scan.sh", self.runuser(self.psql() + [
            "-c", "SELECT sum(abalance) FROM pgbench_accounts"]) + "\n")
        out = dtrace(script("postgresql", "buffer_reads.d"), "-c", cmd)
        rows = re.findall(r"^\s+%s\s+0\s+(hit|read)\s+(\d+)$" % node, out, re.M)
        self.assertTrue(rows, out)
        self.assertEqual(sum(int(n) for _, n in rows), int(blocks), out)


class Python(unittest.TestCase):
    def setUp(self):
        tracelib.require_tracing(self, tools=())
        if not os.access(PYTHON, os.X_OK):
            self.skipTest("%s is not installed" % PYTHON)
        self.tmp = tempfile.TemporaryDirectory()
        with open(os.path.join(self.tmp.name, "dtrace_demo_mod.py"), "w") as f:
            f.write("X = 42\n")
        self.app = os.path.join(self.tmp.name, "app.py")
        with open(self.app, "w") as f:
            f.write(textwrap.dedent("""\
                import gc, sys
                sys.path.insert(0, sys.argv[1])
                gc.disable()
                for i in range(int(sys.argv[2])):
                    gc.collect(2)
                import dtrace_demo_mod
                print(dtrace_demo_mod.X)
                """))

    def tearDown(self):
        self.tmp.cleanup()

    def gen2(self, n):
        out = dtrace(script("python", "gc.d"), "-c",
                     "%s %s %s %d" % (PYTHON, self.app, self.tmp.name, n))
        m = re.search(r"^\s+2\s+(\d+)\s+\d+\s+\d+$", out, re.M)
        self.assertIsNotNone(m, out)
        return int(m.group(1))

    def test_gc(self):
        self.assertEqual(self.gen2(9) - self.gen2(5), 4)

    def test_imports(self):
        out = dtrace(script("python", "imports.d"), "-c",
                     "%s %s %s 0" % (PYTHON, self.app, self.tmp.name))
        self.assertIn("42\n", out)
        self.assertEqual(len(re.findall(r"^\s+\d+ us  dtrace_demo_mod$", out, re.M)), 1, out)


class LibStdCxx(unittest.TestCase):
    def setUp(self):
        tracelib.require_tracing(self, tools=("g++",))
        self.tmp = tempfile.TemporaryDirectory()
        src = os.path.join(self.tmp.name, "thr.cc")
        with open(src, "w") as f:
            f.write(textwrap.dedent("""\
                #include <cstdio>
                #include <stdexcept>
                __attribute__((noinline)) void parse(int i) { if (i >= 0) throw std::runtime_error("bad"); }
                __attribute__((noinline)) void lookup(int i) { if (i >= 0) throw std::out_of_range("no"); }
                __attribute__((noinline)) void again(int i) { try { lookup(i); } catch (...) { throw; } }
                int main()
                {
                	int caught = 0;
                	for (int i = 0; i < 7; i++) try { parse(i); } catch (const std::exception &) { caught++; }
                	for (int i = 0; i < 3; i++) try { again(i); } catch (const std::exception &) { caught++; }
                	std::printf("caught %d\\n", caught);
                }
                """))
        self.prog = os.path.join(self.tmp.name, "thr")
        subprocess.run(["g++", "-O2", "-o", self.prog, src], check=True)

    def tearDown(self):
        self.tmp.cleanup()

    def test_throws(self):
        out = dtrace(script("libstdcxx", "throws.d"), "-c", self.prog)
        self.assertIn("caught 10\n", out)
        throws = {f.split(" [")[0]: int(n) for n, f in re.findall(r"^throws\s+(\d+)  thr`(.*)$",
                                                                 out, re.M)}
        self.assertEqual(throws, {"parse(int)": 7, "lookup(int)": 3}, out)
        self.assertRegex(out, r"(?m)^rethrows\s+3  thr`again\(int\)")
        self.assertRegex(out, r"(?m)^caught\s+13$")


if __name__ == "__main__":
    unittest.main()
