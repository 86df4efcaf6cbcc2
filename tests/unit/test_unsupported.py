"""Every "not supported" of libdtrace is a compile-time error with a tag.

A construct the compiler cannot run yet must be refused when the program
is compiled (dtrace -e finds it), with a tag and a caret, never when it is
loaded.  This reads libdtrace's sources: each string literal that says
"not supported" must be the message of a call that reports a tagged
compile-time error (cg_error and friends, D_UNSUPPORTED at the construct;
dt_cerror with a tag; the pid provider's pid_error with a tag, made while
descriptions are matched at compile time), and none may be in a file that
runs after compiling (loading, linking, draining, printing).  The self-test
feeds the checker a bad call and a bad file.

  python3 test_unsupported.py SOURCE_DIR
"""
import os
import re
import sys
import unittest

COMPILE_TIME = {  # the call: how it names its tag (None: the call's own)
    "cg_error": None, "cg_verror_tag": 2, "dt_cerror": 2, "pid_error": 2,
}
AFTER_COMPILING = {"dt_load.c", "dt_link.c", "dt_consume.c", "dt_agg.c", "dt_json.c",
                   "dt_unwind.c", "dt_sym.c", "dt_proc.c"}
LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*not supported(?:[^"\\\n]|\\.)*"')


def enclosing_call(text, pos):
    """The name of the call whose argument list holds pos, and its arguments' text."""
    depth = 0
    i = pos
    while i > 0:
        i -= 1
        c = text[i]
        if c == ")":
            depth += 1
        elif c == "(":
            if depth == 0:
                m = re.search(r"([A-Za-z_]\w*)\s*$", text[:i])
                # the arguments, to the matching close
                j, d = i + 1, 1
                while j < len(text) and d:
                    d += {"(": 1, ")": -1}.get(text[j], 0)
                    j += 1
                return (m.group(1) if m else None), text[i + 1:j - 1]
            depth -= 1
    return None, ""


def split_args(args):
    out, depth, cur, q = [], 0, "", None
    for c in args:
        if q:
            cur += c
            if c == q and not cur.endswith("\\" + q):
                q = None
            continue
        if c in "\"'":
            q = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        cur += c
    out.append(cur.strip())
    return out


def problems(name, text):
    """What is wrong with the "not supported" messages of one file."""
    found = []
    for m in LITERAL.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        if text.rfind("/*", 0, m.start()) > text.rfind("*/", 0, m.start()):
            continue  # in a comment
        where = "%s:%d" % (name, line)
        call, args = enclosing_call(text, m.start())
        if os.path.basename(name) in AFTER_COMPILING:
            found.append("%s: in a file that runs after compiling" % where)
        elif call not in COMPILE_TIME:
            found.append("%s: reported by %s(), not a tagged compile-time error" % (where, call))
        elif COMPILE_TIME[call] is not None:
            a = split_args(args)
            tag = a[COMPILE_TIME[call]] if len(a) > COMPILE_TIME[call] else ""
            if not re.fullmatch(r'"D_[A-Z_]+"', tag):
                found.append("%s: %s() without a D_ tag (%s)" % (where, call, tag or "none"))
    return found


class Sources(unittest.TestCase):
    def test_every_not_supported_is_a_tagged_compile_time_error(self):
        root = os.path.join(SOURCE_DIR, "libdtrace")
        n, bad = 0, []
        for f in sorted(os.listdir(root)):
            if f.endswith((".c", ".h")):
                with open(os.path.join(root, f)) as fp:
                    text = fp.read()
                n += len(LITERAL.findall(text))
                bad += problems(f, text)
        self.assertEqual(bad, [])
        self.assertGreater(n, 10)  # the scan sees them (21 when written)


class SelfTest(unittest.TestCase):
    def test_catches_an_untagged_or_late_message(self):
        self.assertEqual(problems("dt_cg.c", 'cg_error(cg, n, "x is not supported yet");'), [])
        self.assertEqual(problems("dt_check.c",
                                  'dt_cerror(pcb, &l, "D_UNSUPPORTED", "not supported");'), [])
        self.assertEqual(len(problems("dt_check.c", 'dt_cerror(pcb, &l, "", "not supported");')),
                         1)
        self.assertEqual(len(problems("dt_cg.c", 'dt_set_errmsg(dtp, 1, "not supported");')), 1)
        self.assertEqual(len(problems("dt_load.c", 'cg_error(cg, n, "not supported");')), 1)
        self.assertEqual(problems("dt_cg.c", '/* "not supported" */ int x;'), [])


if __name__ == "__main__":
    SOURCE_DIR = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..")
    unittest.main()
