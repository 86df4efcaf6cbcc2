"""What dtrace -e accepts loads: every D program of the golden tests.

Each tests/d/*/*.d and tests/dis/*.d file is compiled as the golden runner
compiles it (its NAME.d.args macro arguments; -C, -q and -x options of its
"@args:" line) and, when it compiles, loaded by loadcheck without
attaching: the programs of the probes it matches here, and each clause
alone on a stand-in BEGIN, profile, USDT (arguments that use every kind
of operand) and, where the kernel has them, tp_btf probe (sched_switch,
whose arguments the kernel types as pointers).  The kernel's verifier is the oracle: a program the
compiler accepted and the verifier refuses is a compiler defect (issue:
"no program that -e accepts is refused at load").

Environment: LOADCHECK (tests/integration/loadcheck), SOURCE_DIR.
"""
import glob
import os
import shlex
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import tracelib  # noqa: E402

LOADCHECK = os.environ.get("LOADCHECK", "loadcheck")
SOURCE = os.environ.get("SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def programs():
    files = sorted(glob.glob(os.path.join(SOURCE, "tests", "d", "*", "*.d")))
    files += sorted(glob.glob(os.path.join(SOURCE, "tests", "dis", "*.d")))
    return files


def command(path):
    """loadcheck's command line for path, as run_golden.py would run dtrace."""
    opts, macros = [], []
    with open(path, errors="replace") as f:
        for line in f:
            if "@args:" in line:
                words = shlex.split(line.split("@args:", 1)[1].rsplit("*/", 1)[0])
                i = 0
                while i < len(words):
                    w = words[i]
                    if w in ("-C", "-q"):
                        opts.append(w)
                    elif w == "-x" and i + 1 < len(words):
                        opts += ["-x", words[i + 1]]
                        i += 1
                    elif w in ("-c", "-p", "-o", "-s", "-n"):
                        i += 1  # a target or another program: not ours to load
                    elif not w.startswith("-"):
                        macros.append(w)
                    i += 1
    if os.path.exists(path + ".args"):
        with open(path + ".args") as f:
            macros += shlex.split(f.read())
    return [LOADCHECK] + opts + [path] + macros


class LoadAll(unittest.TestCase):
    def test_every_accepted_program_loads(self):
        tracelib.require_tracing(self, tools=())
        loaded, refused, kernel, failures = 0, 0, 0, []
        for path in programs():
            r = subprocess.run(command(path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, timeout=120)
            if r.returncode == 0:
                loaded += 1
            elif r.returncode == 2:
                refused += 1
            elif r.returncode == 3:
                kernel += 1  # copyout on a kernel in lockdown: dtrace_go refuses it first
            elif r.returncode == 77:
                self.fail("loadcheck has no privilege to load BPF: " + r.stderr)
            else:
                failures.append("%s: %s" % (os.path.relpath(path, SOURCE), r.stderr.strip()))
        print("\n%d programs loaded, %d refused by the compiler, %d not loadable on this "
              "kernel (lockdown), %d refused at load" % (loaded, refused, kernel, len(failures)))
        self.assertEqual(failures, [])
        # 176 of the golden programs compile (November 2026): a broken harness loads none
        self.assertGreater(loaded, 150)

    def test_statuses(self):
        """The harness can fail: loadcheck tells loaded (0), refused by the
        compiler (2) and refused at load (1) apart."""
        tracelib.require_tracing(self, tools=())
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "p.d")

            def check(src, *opts):
                with open(p, "w") as f:
                    f.write(src)
                return subprocess.run([LOADCHECK] + list(opts) + [p], stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, timeout=60)

            r = check("BEGIN { trace(probename); }\n")
            self.assertEqual(r.returncode, 0, r.stderr)
            r = check("BEGIN { ustack(2000); }\n")
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("ustack( ) of 2000 frames: 1024 at most", r.stderr)
            # eight 4096-byte strings in one record: the compiler knows the scratch is too small
            r = check("BEGIN { printf(\"%s%s%s%s%s%s%s%s\", probename, probename, probename,"
                      " probename, probename, probename, probename, probename); }\n",
                      "-x", "strsize=4096")
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("more than 32768", r.stderr)
            # 400 lltostr( ) on one probe: more than the million instructions the
            # verifier processes over all its paths, known only when it loads (the
            # pending branches of one path, which 2,500 count( )s once passed, the
            # compiler counts: test_agg_limits)
            r = check("BEGIN { x = lltostr(timestamp); }\n" * 400)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("BPF program is too large", r.stderr)

if __name__ == "__main__":
    unittest.main()
