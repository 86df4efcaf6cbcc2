#!/usr/bin/env python3
"""libdtrace's stages, each a group of files depending only on earlier ones.

usage: stages.py LIBDTRACE_DIR [--self-test]

Every .c and .h file of libdtrace/ has a stage (the table below, the one
docs/internals.md explains); a file may include the headers of its own
stage and of earlier stages only.  A file missing from the table fails the
check too: a new file says where it belongs.  Prints "N passed, N failed".
"""
import os
import re
import sys

STAGES = [
    ("compile", ["dt_impl.h", "dt_utf8.h", "dt_lex.c", "dt_parse.c", "dt_pexpr.c",
                 "dt_check.c", "dt_type.c", "dt_builtin.c", "dt_cpp.c", "dt_options.c",
                 "dt_strset.c", "dt_stapsdt.c"]),
    ("program", ["dt_program.h", "dt_program.c", "dt_dis.h", "dt_dis.c"]),
    ("generate", ["dt_cg.c"]),
    ("providers", ["dt_provider.h", "dt_probe.c"]),  # and every dt_prov_NAME.c
    ("load", ["dt_run.h", "dt_link.c", "dt_load.c", "dt_proc.c"]),
    ("consume", ["dt_consume.c", "dt_agg.c"]),
    ("output", ["dt_json.c"]),
    ("handle", ["dt_open.c"]),  # open, compile (every compile stage), close
]
OUTSIDE = {"dtrace.h", "ks.h"}  # the public header; kernel-shim's


def stage_of(names=()):
    """Each file's stage: the table's, and every dt_prov_NAME.c a provider's."""
    where = {f: i for i, (_, files) in enumerate(STAGES) for f in files}
    prov = [i for i, (name, _) in enumerate(STAGES) if name == "providers"][0]
    for f in names:
        if f.startswith("dt_prov_") and f.endswith(".c"):
            where.setdefault(f, prov)
    return where


def check(files):
    """files: {name: text}.  Returns the list of violations."""
    where, bad = stage_of(files), []
    for name, text in sorted(files.items()):
        if name not in where:
            bad.append("%s: not in the table of stages (tests/unit/stages.py)" % name)
            continue
        for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
            inc = os.path.basename(inc)
            if inc in OUTSIDE:
                continue
            if inc not in where:
                bad.append("%s includes %s, which has no stage" % (name, inc))
            elif where[inc] > where[name]:
                bad.append("%s (%s) includes %s of a later stage (%s)"
                           % (name, STAGES[where[name]][0], inc, STAGES[where[inc]][0]))
    return bad


def self_test():
    """The check can fail: a later stage's header, and an unknown file."""
    ok = check({"dt_cg.c": '#include "dt_program.h"\n', "dt_program.h": ""}) == []
    ok &= len(check({"dt_lex.c": '#include "dt_run.h"\n', "dt_run.h": ""})) == 1
    ok &= len(check({"dt_new.c": ""})) == 1
    print("%d passed, %d failed" % (1 if ok else 0, 0 if ok else 1))
    return 0 if ok else 1


def main():
    if "--self-test" in sys.argv:
        return self_test()
    d = sys.argv[1]
    files = {}
    for f in os.listdir(d):
        if f.endswith((".c", ".h")):
            with open(os.path.join(d, f), errors="replace") as fh:
                files[f] = fh.read()
    bad = check(files)
    for b in bad:
        print("FAIL " + b)
    print("%d passed, %d failed" % (len(files) - len({b.split(':')[0].split(' ')[0] for b in bad}),
                                    len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
