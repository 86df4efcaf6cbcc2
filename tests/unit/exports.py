#!/usr/bin/python3
"""The shared libraries export exactly their documented functions.

Every function a public header declares with its export macro (DTRACE_API
in dtrace.h and dtrace_gen.h, USDT_API in usdt.h) must be a defined dynamic
symbol of the library, and the library must define no other dynamic symbol
(nm -D --defined-only): nothing internal leaks through the version script,
nothing documented is missing.

  exports.py LIBRARY MACRO HEADER...   check one library
  exports.py --self-test               check that a leak and a missing
                                       function are both caught
"""
import os
import re
import subprocess
import sys
import tempfile


def declared(macro, texts):
    """The names of the functions declared MACRO type name(...); in texts."""
    names = set()
    for text in texts:
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        text = re.sub(r"//[^\n]*", " ", text)
        # preprocessor lines (the macro's own #define) declare nothing
        text = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", " ", text, flags=re.M)
        for decl in re.finditer(r"\b%s\b([^;{]*?)\(" % re.escape(macro), text):
            m = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*$", decl.group(1))
            if m is None:
                raise SystemExit("exports: cannot read the declaration %r" % decl.group(0))
            names.add(m.group(1))
    return names


def exported(lib):
    """The library's defined dynamic symbols, without their versions."""
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        f = line.split()
        if len(f) < 3:
            continue
        kind, name = f[1], f[2].split("@")[0]
        if kind == "A":  # the version nodes (DTRACE_0): not symbols of the API
            continue
        names.add(name)
    return names


def check(lib, macro, texts):
    """A list of problems (empty when the library matches its headers)."""
    want, have = declared(macro, texts), exported(lib)
    problems = []
    if not want:
        problems.append("%s: no function declared with %s in the headers" % (lib, macro))
    for name in sorted(want - have):
        problems.append("%s: %s is declared %s but not exported" % (lib, name, macro))
    for name in sorted(have - want):
        problems.append("%s: %s is exported but no header declares it %s" % (lib, name, macro))
    return problems


def self_test():
    """Build a library with one documented, one undocumented and one hidden
    function, and check that the check sees the leak, then the missing
    function, and passes once the header matches."""
    cc = os.environ.get("CC", "cc")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        src, lib = os.path.join(tmp, "x.c"), os.path.join(tmp, "libx.so")
        with open(src, "w") as f:
            f.write("#define X_API __attribute__((visibility(\"default\")))\n"
                    "X_API int x_documented(int a) { return a; }\n"
                    "X_API int x_leaked(void) { return 1; }\n"
                    "int x_hidden(void) { return 2; }\n")
        subprocess.run([cc, "-shared", "-fPIC", "-fvisibility=hidden", src, "-o", lib],
                       check=True)
        header = "/* X_API int x_in_a_comment(void); */\n#define X_API\nX_API int x_documented(int a);\n"
        cases = [
            ("a leaked symbol", header, ["x_leaked is exported but no header declares it"]),
            ("a missing function", header + "X_API int x_leaked(void);\n"
             "X_API const char *\nx_missing(int a,\n\tint b);\n",
             ["x_missing is declared X_API but not exported"]),
            ("a matching header", header + "X_API int x_leaked(void);\n", []),
        ]
        for what, text, expect in cases:
            got = check(lib, "X_API", [text])
            ok = len(got) == len(expect) and all(e in g for e, g in zip(expect, got))
            print("%s: %s" % ("ok" if ok else "FAILED", what))
            if not ok:
                print("  expected %r, got %r" % (expect, got))
                failed += 1
    return 1 if failed else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    lib, macro, headers = argv[1], argv[2], argv[3:]
    texts = []
    for h in headers:
        with open(h) as f:
            texts.append(f.read())
    problems = check(lib, macro, texts)
    for p in problems:
        print(p)
    if not problems:
        print("%s: %d functions, each declared %s" % (lib, len(exported(lib)), macro))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
