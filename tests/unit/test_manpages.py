"""The man pages docs/dtrace.1, docs/libusdt.3 and docs/libdtrace.3.

Each renders with no warning (groff -ww, mandoc -T lint, man), and each
documents what it should: dtrace.1 has an entry (a .TP tag) for every
option letter of cmd/dtrace.c's getopt string and for every -x option
libdtrace accepts (the table of dt_options.c and the names dtrace_setopt()
in dt_open.c handles itself); libusdt.3 and libdtrace.3 name every function
their header declares, in the SYNOPSIS and after it, and their example
programs compile against the headers.  A new option or function without
its documentation fails here.

Environment: SOURCE_DIR (the repository; default: two folders up).
"""
import os
import re
import shutil
import subprocess
import unittest

ROOT = os.environ.get("SOURCE_DIR",
                      os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
PAGES = ("docs/dtrace.1", "docs/libusdt.3", "docs/libdtrace.3")


def read(path):
    with open(os.path.join(ROOT, path)) as f:
        return f.read()


def in_ci():
    return os.environ.get("CI", "").lower() == "true"


# ---------------------------------------------------------------- what the code has

def getopt_letters(source):
    """The option letters of the command's getopt() string."""
    m = re.findall(r'getopt\(argc, argv, "([^"]+)"\)', source)
    if len(m) != 1:
        raise AssertionError("cmd/dtrace.c: expected one getopt() string, found %d" % len(m))
    return sorted(set(c for c in m[0] if c.isalnum()))


def table_options(source):
    """The names of dt_options.c's options[] table."""
    names = re.findall(r'\{\s*"([a-z]+)",\s*OPT_[A-Z]+\s*\}', source)
    if not names:
        raise AssertionError("dt_options.c: no option table found")
    return names


def setopt_options(source):
    """The option names dtrace_setopt() (dt_open.c) handles before the table."""
    m = re.search(r"int dtrace_setopt\(.*?\n\}", source, re.S)
    if m is None:
        raise AssertionError("dt_open.c: dtrace_setopt() not found")
    return re.findall(r'strcmp\(opt, "([a-z]+)"\)', m.group(0))


def api_functions(header, macro):
    """The functions a public header declares with its API macro."""
    names = re.findall(r"^%s\s+[^;(]*?\b(\w+)\s*\(" % macro, header, re.M)
    if not names:
        raise AssertionError("no %s function found" % macro)
    return names


# ---------------------------------------------------------------- what the page has

def tags(page):
    """The tag lines of the page's .TP paragraphs, without font escapes."""
    lines = page.splitlines()
    out = []
    for i, line in enumerate(lines[:-1]):
        if line.strip() == ".TP":
            out.append(re.sub(r"\\f[BIRP]", "", lines[i + 1]))
    return out


def missing_letters(page, letters):
    """The letters with no ".B \\-X" (or .BI/.BR) tag."""
    have = set()
    for t in tags(page):
        m = re.match(r'^\.B[IR]?\s+"?\\-([A-Za-z0-9])(\s|"|$)', t)
        if m:
            have.add(m.group(1))
    return [c for c in letters if c not in have]


def missing_from_synopsis(page, letters):
    """The letters the SYNOPSIS shows neither as "\-X" nor in a group of
    switches ("[\-CeFG...]")."""
    syn = section(page, "SYNOPSIS")
    groups = "".join(re.findall(r"\\-([A-Za-z]{2,})\b", syn))
    return [c for c in letters
            if not re.search(r"\\-%s(?![A-Za-z])" % c, syn) and c not in groups]


def missing_xopts(page, names):
    """The -x options with no tag of their own ("name", "name=value")."""
    have = set()
    for t in tags(page):
        m = re.match(r"^\.B[IR]?\s+([a-z]+)(=|\s|$)", t)
        if m:
            have.add(m.group(1))
    return [n for n in names if n not in have]


def section(page, name):
    m = re.search(r"^\.SH %s\n(.*?)(?=^\.SH |\Z)" % re.escape(name), page, re.M | re.S)
    return m.group(1) if m else ""


def missing_functions(page, names):
    """The functions not named in the SYNOPSIS or not described after it.
    A numbered family (usdt_probe_fire0 ... fire6) is covered by its first
    and last members."""
    synopsis = section(page, "SYNOPSIS")
    body = page[page.find(".SH DESCRIPTION"):] if ".SH DESCRIPTION" in page else ""
    families = {}
    for n in names:
        m = re.match(r"^(.*\D)(\d+)$", n)
        if m:
            families.setdefault(m.group(1), []).append(int(m.group(2)))

    def named(text, n):
        if re.search(r"\b%s\b" % re.escape(n), text):
            return True
        m = re.match(r"^(.*\D)(\d+)$", n)
        if m is None:
            return False
        stem, nums = m.group(1), families[m.group(1)]
        return all(re.search(r"\b%s%d\b" % (re.escape(stem), k), text)
                   for k in (min(nums), max(nums)))

    return [n for n in names if not named(synopsis, n) or not named(body, n)]


# ---------------------------------------------------------------- tests

class Rendering(unittest.TestCase):
    def tool(self, name):
        path = shutil.which(name)
        if path is None:
            if in_ci():
                self.fail("%s is not installed (scripts/dev setup installs it)" % name)
            self.skipTest("%s is not installed" % name)
        return path

    def test_groff_no_warnings(self):
        groff = self.tool("groff")
        for page in PAGES:
            p = subprocess.run([groff, "-man", "-Tutf8", "-ww", "-z", os.path.join(ROOT, page)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            self.assertEqual((p.returncode, p.stderr), (0, ""), page)

    def test_mandoc_lint(self):
        mandoc = self.tool("mandoc")
        for page in PAGES:
            p = subprocess.run([mandoc, "-T", "lint", "-W", "warning", os.path.join(ROOT, page)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            self.assertEqual((p.returncode, p.stdout + p.stderr), (0, ""), page)

    def test_man_renders(self):
        # what a user types: man ./docs/dtrace.1 (man-db reads a path as a file)
        man = self.tool("man")
        env = dict(os.environ, MANWIDTH="80", PAGER="cat", MANPAGER="cat", LC_ALL="C.UTF-8")
        for page, title in zip(PAGES, ("DTRACE(1)", "LIBUSDT(3)", "LIBDTRACE(3)")):
            p = subprocess.run([man, "--warnings", "./" + page], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            self.assertEqual((p.returncode, p.stderr), (0, ""), page)
            text = re.sub(".\b", "", p.stdout)
            self.assertTrue(text.startswith(title), text[:200])
            for head in ("NAME", "SYNOPSIS", "DESCRIPTION", "SEE ALSO"):
                self.assertIn("\n%s\n" % head, text, page)


class Coverage(unittest.TestCase):
    def test_every_option_letter(self):
        letters = getopt_letters(read("cmd/dtrace.c"))
        self.assertGreater(len(letters), 20)
        self.assertEqual(missing_letters(read("docs/dtrace.1"), letters), [])
        self.assertEqual(missing_from_synopsis(read("docs/dtrace.1"), letters), [])

    def test_every_x_option(self):
        names = table_options(read("libdtrace/dt_options.c"))
        extra = setopt_options(read("libdtrace/dt_open.c"))
        self.assertIn("bufsize", names)
        self.assertIn("errtags", extra)
        self.assertEqual(missing_xopts(read("docs/dtrace.1"), names + extra), [])

    def test_every_libusdt_function(self):
        names = api_functions(read("libusdt/include/usdt.h"), "USDT_API")
        self.assertIn("usdt_watch_stop", names)
        self.assertEqual(missing_functions(read("docs/libusdt.3"), names), [])

    def test_every_libdtrace_function(self):
        names = api_functions(read("libdtrace/include/dtrace.h"), "DTRACE_API")
        self.assertIn("dtrace_work", names)
        # dtrace -h and -G's functions, where they have a header of their own
        gen = "dtrace-gen/include/dtrace_gen.h"
        if os.path.exists(os.path.join(ROOT, gen)):
            names += re.findall(r"^(?:DTRACE_API\s+)?int\s+(dtrace_\w+)\(", read(gen), re.M)
            self.assertIn("dtrace_program_link", names)
        self.assertEqual(missing_functions(read("docs/libdtrace.3"), names), [])

    def test_sections_of_dtrace_1(self):
        # the shape of illumos' dtrace(1M)
        page = read("docs/dtrace.1")
        heads = re.findall(r"^\.SH (.+)$", page, re.M)
        for h in ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "OPERANDS", "EXIT STATUS",
                  "EXAMPLES", "SEE ALSO"):
            self.assertIn(h, heads)


def example_program(page):
    """The C program of the page's EXAMPLES (the .nf block with main), as text."""
    ex = section(page, "EXAMPLES")
    for block in re.findall(r"^\.nf\n(.*?)^\.fi$", ex, re.M | re.S):
        if "int main(" in block:
            return block.replace("\\e", "\\").replace("\\-", "-").replace("\\&", "")
    raise AssertionError("no C program in EXAMPLES")


class Examples(unittest.TestCase):
    """The pages' example programs compile against the headers as they are."""

    def compile(self, page, include):
        cc = shutil.which(os.environ.get("CC", "cc"))
        if cc is None:
            self.skipTest("no C compiler")
        src = example_program(read(page))
        p = subprocess.run([cc, "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
                            "-I", os.path.join(ROOT, include), "-x", "c", "-"], input=src,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.assertEqual((p.returncode, p.stderr), (0, ""), src)

    def test_libusdt_example(self):
        self.compile("docs/libusdt.3", "libusdt/include")

    def test_libdtrace_example(self):
        self.compile("docs/libdtrace.3", "libdtrace/include")


class Checker(unittest.TestCase):
    """The checks catch what they are for (each could pass vacuously)."""

    def test_a_removed_letter_is_missing(self):
        page = read("docs/dtrace.1").replace(".TP\n.B \\-w\n", ".TP\n.B \\-\\-w\n", 1)
        self.assertNotEqual(page, read("docs/dtrace.1"))
        self.assertEqual(missing_letters(page, getopt_letters(read("cmd/dtrace.c"))), ["w"])

    def test_a_new_letter_is_missing(self):
        src = read("cmd/dtrace.c").replace('argv, "b:', 'argv, "Kb:', 1)
        self.assertIn("K", getopt_letters(src))
        self.assertEqual(missing_letters(read("docs/dtrace.1"), getopt_letters(src)), ["K"])
        self.assertEqual(missing_from_synopsis(read("docs/dtrace.1"), getopt_letters(src)),
                         ["K"])
        page = read("docs/dtrace.1").replace("[ \\-CeFGhlqSvVwZ ]", "[ \\-CeFGhlqSVwZ ]", 1)
        self.assertNotEqual(page, read("docs/dtrace.1"))
        self.assertEqual(missing_from_synopsis(page, getopt_letters(src)), ["K", "v"])

    def test_a_new_x_option_is_missing(self):
        src = read("libdtrace/dt_options.c").replace(
            '{ "agghist", OPT_BOOL },', '{ "agghist", OPT_BOOL }, { "newopt", OPT_SIZE },', 1)
        names = table_options(src)
        self.assertIn("newopt", names)
        self.assertEqual(missing_xopts(read("docs/dtrace.1"), names), ["newopt"])

    def test_a_mention_is_not_an_entry(self):
        # "-x bufsize" in running text does not document an option: its tag does
        page = ".TH X 1\n.SH OPTIONS\nsee bufsize and \\-q\n"
        self.assertEqual(missing_xopts(page, ["bufsize"]), ["bufsize"])
        self.assertEqual(missing_letters(page, ["q"]), ["q"])

    def test_a_new_function_is_missing(self):
        hdr = read("libusdt/include/usdt.h") + "\nUSDT_API int usdt_probe_frob(int x);\n"
        names = api_functions(hdr, "USDT_API")
        self.assertEqual(missing_functions(read("docs/libusdt.3"), names), ["usdt_probe_frob"])

    def test_a_stale_example_does_not_compile(self):
        cc = shutil.which(os.environ.get("CC", "cc"))
        if cc is None:
            self.skipTest("no C compiler")
        src = example_program(read("docs/libdtrace.3"))
        self.assertIn("dtrace_sleep(dtp);", src)
        p = subprocess.run([cc, "-fsyntax-only", "-I", os.path.join(ROOT, "libdtrace/include"),
                            "-x", "c", "-"], input=src.replace("dtrace_sleep(dtp);",
                                                               "dtrace_sleep(dtp, 1);"),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("dtrace_sleep", p.stderr)

    def test_a_family_needs_its_ends(self):
        page = (".SH SYNOPSIS\nf0 f6\n.SH DESCRIPTION\nf0 to f6\n")
        self.assertEqual(missing_functions(page, ["f0", "f3", "f6"]), [])
        # f0 is named itself; f3 and f6 are not without the range's end
        self.assertEqual(missing_functions(page.replace("to f6", ""), ["f0", "f3", "f6"]),
                         ["f3", "f6"])


if __name__ == "__main__":
    unittest.main()
