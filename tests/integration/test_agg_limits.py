"""How many aggregations a program may have is the kernel's business, not
the code generator's: a probe's program names one array of maps per shape
of aggregation (key and value sizes), not one map per aggregation, so the
kernel's 64 maps a program may name no longer stop a clause at about 55
aggregations.  What the kernel does limit, a million instructions in one
program, is refused by dtrace -e for clauses that name the same probe.

The programs are generated here, not kept as files.

Environment: DTRACE (our dtrace).
"""
import os
import re
import subprocess
import tempfile
import unittest

DTRACE = os.environ.get("DTRACE", "dtrace")


def program(clauses, aggs, distinct=False):
    out = []
    for c in range(clauses):
        out.append("BEGIN\n{")
        for i in range(aggs):
            name = "c%d_%d" % (c, i) if distinct else "a%d" % i
            out.append("\t@%s = count();" % name)
        out.append("}")
    out.append("BEGIN\n{\n\texit(0);\n}")
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
        for distinct in (False, True):
            p = dtrace(["-x", "errtags", "-e"], program(500, 100, distinct))
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertRegex(p.stderr, r"\[D_CG_LIMIT\] line \d+: the clauses for BEGIN need "
                             r"\d+ BPF instructions, more than the 1000000 the kernel loads "
                             r"in one program")
            # at the clause that crosses the limit (103 lines each, 5,028 instructions)
            line = int(re.search(r"line (\d+):", p.stderr).group(1))
            need = int(re.search(r"need (\d+) BPF", p.stderr).group(1))
            self.assertEqual((line - 1) % 103, 0, p.stderr)
            self.assertTrue(1000000 < need <= 1000000 + 5028, p.stderr)
            self.assertTrue(190 < (line - 1) // 103 < 200, p.stderr)

    def test_fewer_clauses_compile(self):
        p = dtrace(["-e"], program(150, 100))
        self.assertEqual(p.returncode, 0, p.stderr)

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
