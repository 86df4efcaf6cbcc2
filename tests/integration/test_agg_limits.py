"""How many aggregations a program may have is the kernel's business, not
the code generator's: the aggregations of one shape (key and value sizes)
share one map, so a probe's program names one map per shape, not one map
per aggregation (the kernel's 64 maps a program may name stopped a clause
at about 55 aggregations), and 50,000 aggregations take one map's memory,
not 50,000 maps' (each a table of buckets of aggsize: out of memory).
What the kernel does limit on one probe, dtrace -e refuses for clauses that
name the same probe: the verifier's 8192 pending branches on one path
(about 8,100 updates) come first for aggregations, a million instructions
in one program for straight-line code.

The programs are generated here, not kept as files.

Environment: DTRACE (our dtrace).
"""
import os
import re
import subprocess
import tempfile
import unittest

DTRACE = os.environ.get("DTRACE", "dtrace")


def program(clauses, aggs, distinct=False, probe="BEGIN", exit_probe="BEGIN"):
    out = []
    for c in range(clauses):
        out.append("%s\n{" % (probe(c) if callable(probe) else probe))
        for i in range(aggs):
            name = "c%d_%d" % (c, i) if distinct else "a%d" % i
            out.append("\t@%s = count();" % name)
        out.append("}")
    out.append("%s\n{\n\texit(0);\n}" % exit_probe)
    return "\n".join(out) + "\n"


def dtrace(args, source, timeout=300):
    with tempfile.NamedTemporaryFile("w", suffix=".d", delete=False) as f:
        f.write(source)
    try:
        return subprocess.run([DTRACE] + args + ["-s", f.name], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, timeout=timeout)
    finally:
        os.unlink(f.name)


class Limits(unittest.TestCase):
    def test_500_clauses_of_100_aggregations_refused_at_compile_time(self):
        # the verifier's limit on branches: 101 a clause (an update's lookup,
        # the clause's activity test), refused at the 81st clause
        for distinct in (False, True):
            p = dtrace(["-x", "errtags", "-e"], program(500, 100, distinct))
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertRegex(p.stderr, r"\[D_CG_LIMIT\] line \d+: the clauses for BEGIN have "
                             r"\d+ conditional jumps on one path, more than the 8100 the "
                             r"kernel's verifier takes in one program \(it keeps at most 8192 "
                             r"pending: BPF_COMPLEXITY_LIMIT_JMP_SEQ\)")
            line = int(re.search(r"line (\d+):", p.stderr).group(1))
            have = int(re.search(r"have (\d+) cond", p.stderr).group(1))
            self.assertEqual((line - 1) % 103, 0, p.stderr)
            self.assertEqual((line - 1) // 103, 80, p.stderr)
            self.assertTrue(8100 < have <= 8100 + 101, p.stderr)

    def test_80_clauses_of_100_aggregations_on_one_probe_compile(self):
        p = dtrace(["-e"], program(80, 100, probe="tick-1s", exit_probe="tick-1s"))
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_straight_line_code_refused_for_its_instructions(self):
        # 1,300 stores a clause (5,204 instructions, two branches): the million first
        src = "int x;\n" + "".join("BEGIN\n{\n%s\n}\n" % ("x = 1;" * 1300)
                                   for _ in range(200))
        p = dtrace(["-x", "errtags", "-e"], src)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertRegex(p.stderr, r"\[D_CG_LIMIT\] line \d+: the clauses for BEGIN need "
                         r"\d+ BPF instructions, more than the 1000000 the kernel loads "
                         r"in one program")
        line = int(re.search(r"line (\d+):", p.stderr).group(1))
        need = int(re.search(r"need (\d+) BPF", p.stderr).group(1))
        self.assertEqual((line - 2) % 4, 0, p.stderr)
        self.assertTrue(1000000 < need <= 1000000 + 5300, p.stderr)
        self.assertTrue(180 < (line - 2) // 4 < 200, p.stderr)

    def test_many_clauses_on_their_own_probes_compile(self):
        p = dtrace(["-e"], program(500, 100, distinct=True, probe=lambda c: "tick-%ds" % (c + 1),
                                   exit_probe="tick-1s"))
        self.assertEqual(p.returncode, 0, p.stderr)

    @unittest.skipUnless(os.geteuid() == 0, "tracing needs root")
    def test_500_clauses_of_100_aggregations_on_their_own_probes_load(self):
        # 50,000 aggregations of one shape: one map (they were 50,000 maps,
        # each allocating a table of buckets for aggsize: out of memory).
        # tick-1s, tick-2s, tick-3s fire; the others load and never do.
        src = program(500, 100, distinct=True, probe=lambda c: "tick-%ds" % (c + 1),
                      exit_probe="tick-3s")
        p = dtrace(["-q"], src, timeout=600)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, "")
        counts = [int(w) for w in p.stdout.split()]
        # tick-1s fired twice or three times (its third firing races exit)
        self.assertEqual(len(counts), 300, p.stdout[:400])
        self.assertIn(counts[:100], ([2] * 100, [3] * 100), p.stdout[:400])
        self.assertEqual(counts[100:], [1] * 200, p.stdout[:400])

    @unittest.skipUnless(os.geteuid() == 0, "tracing needs root")
    def test_100_aggregations_in_a_clause_load(self):
        # was: "The total number of maps per program has reached the limit of 64"
        p = dtrace(["-q"], program(1, 100))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.split(), ["1"] * 100)

    @unittest.skipUnless(os.geteuid() == 0, "tracing needs root")
    def test_500_aggregations_of_two_shapes_in_five_clauses_load(self):
        src = program(5, 100, distinct=True).replace(
            "@c3_7 = count();", "@c3_7[\"key\"] = sum(7);")
        p = dtrace(["-q"], src)
        self.assertEqual(p.returncode, 0, p.stderr)
        words = p.stdout.split()
        self.assertEqual(words.count("1"), 499, p.stdout[:400])
        self.assertIn("key", words)
        self.assertEqual(words[words.index("key") + 1], "7")


if __name__ == "__main__":
    unittest.main()
