#!/usr/bin/env python3
"""Golden tests for D programs and provider files.

usage: run_golden.py DTRACE DIR [--update] [--unprivileged]

In DIR:
  err.D_TAG.name.d   must fail to compile: exit status 1, the tag in the
                     message (run with -x errtags), and stderr equal to
                     err.D_TAG.name.d.err (so the line and column too)
  NAME.d.args        macro arguments ($1...) for NAME.d, on one line
  dis.name.d         "dtrace -e -S -s dis.name.d" must exit 0, print nothing on
                     stdout and its compiled BPF code on stderr, equal to
                     dis.name.d.dis
  tst.name.d         programs that must compile with -e and print nothing;
                     for provider definitions, also: dtrace -h's header
                     must build as C and C++ with -Wall -Wextra -Werror, and
                     equal tst.name.d.h when that file exists (where the
                     text of dtrace/sdt_site.h, which every header embeds
                     verbatim, stands as one SITE_MARK line); with a
                     tst.name.c that fires its probes, the probe names and
                     argument sizes/signs of the notes (readelf -n), for C
                     and C++ at -O0 and -O2, must equal tst.name.d.notes
  run.name.d         traced for real: "dtrace -s run.name.d" on CPU 0 (taskset),
                     in a copy of DIR; leading comment lines "@setup: CMD"
                     (run first; "dtrace" means ours), "@args: ARGS" (more
                     dtrace arguments, e.g. -q -c ./trigger) and "@exit: N";
                     "@lockdown: refused" marks a program that writes the
                     process's memory (copyout): on a kernel in lockdown
                     (/sys/kernel/security/lockdown other than [none]),
                     which refuses bpf_probe_write_user, dtrace must exit 1
                     with stderr equal to run.name.d.lockdown.err instead,
                     and stdout (the target's) is not compared;
                     stdout must equal run.name.d.out and stderr
                     run.name.d.err (empty when absent: --update does not
                     create an empty one), with "DIF offset N" read as
                     "DIF offset <n>" (instruction offsets move), and
                     in JSON output "offset":N as "offset":"<n>" and, for
                     a probe not of the dtrace provider, "id":N as
                     "id":"<n>" and a provider's PID as <pid> (they change
                     from run to run), and
                     consecutive "dtrace: N ... drops on CPU C" lines of one
                     kind and CPU summed into one; "dtrace: N lost tick
                     firings on CPU C" lines are left out (this kind of VM
                     loses a few tick-1ms firings a second, bpftrace's
                     interval probes as many: integration.startup checks
                     the reports)
  *.cmd              a dtrace command line (after "dtrace"), run in a copy
                     of DIR; "# exit N", "# setup: CMD" and "# creates: FILE"
                     (it must exist afterwards) lines first; its stderr must
                     equal NAME.cmd.err, and its stdout NAME.cmd.out when that
                     file exists
  skips              a run case's "@skipif: CMD" / "@skipunless: CMD" (a cmd
                     case's "# skipif: CMD" / "# skipunless: CMD"), CMD a
                     shell command run in DIR's copy ("dtrace" in $DTRACE):
                     the case is skipped when CMD exits 0 (skipif) or does
                     not (skipunless), and the runner prints "SKIP name:
                     why", why being CMD's last line of output (what this
                     machine cannot do: fbt where fentry is refused)
--update rewrites the expected files from what dtrace prints now (review the
diff before committing it).
--unprivileged runs dtrace as a user without privileges, to prove the cases
need none: as root, as user and group 65534 (setpriv) on copies of dtrace and
DIR that this user can read; otherwise as ourselves. Either way the runner
first checks that such a process has a non-zero uid and no capabilities. Only
dis and err cases, which only compile, can be run so.
Prints "N passed, N failed" and exits non-zero on any failure.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile


NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

DROPS = re.compile(r"^dtrace: (\d+) (.*drops on CPU \d+)$")


def json_ids(line):
    """A JSON probe line's id and provider PID, which change from run to run."""
    m = re.search(r'"id":(\d+),"provider":"([A-Za-z_]*?)(\d+)"', line)
    if m is None or not line.startswith("{"):
        return line
    return line[:m.start()] + '"id":"<n>","provider":"%s<pid>"' % m.group(2) + line[m.end():]


LOST_TICKS = re.compile(r"^dtrace: \d+ lost tick firings? on CPU \d+$")


def merge_drops(err):
    """Consecutive drop reports of one kind and CPU as one line: dtrace
    reports the drops counted since its last wake-up, and when it wakes
    depends on the machine's load.  Lost tick firings are the machine's."""
    out = []
    for line in err.splitlines(keepends=True):
        if LOST_TICKS.match(line.rstrip("\n")):
            continue
        m = DROPS.match(line.rstrip("\n"))
        prev = DROPS.match(out[-1].rstrip("\n")) if out else None
        if m and prev and m.group(2) == prev.group(2):
            out[-1] = "dtrace: %d %s\n" % (int(prev.group(1)) + int(m.group(1)), m.group(2))
        else:
            out.append(line)
    return "".join(out)


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=60)
    return p.returncode, p.stdout.decode("utf-8", "replace"), \
        p.stderr.decode("utf-8", "replace")


SITE_H = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "dtrace-gen",
                      "include", "dtrace", "sdt_site.h")
SITE_MARK = "/* ...the text of dtrace/sdt_site.h, verbatim... */\n"


def fold_site(header):
    """The header with its copy of sdt_site.h as SITE_MARK, or None when the
    copy is not verbatim: the goldens pin what is ours to each provider."""
    with open(SITE_H) as f:
        site = f.read()
    if header.count(site) != 1:
        return None
    return header.replace(site, SITE_MARK)


def note_sizes(obj):
    """provider:probe and the size@ of each argument, from readelf -n."""
    out = subprocess.run(["readelf", "-n", obj], stdout=subprocess.PIPE, text=True).stdout
    lines = []
    for m in re.finditer(r"Provider: (\S+)\s+Name: (\S+)\s+Location: [^\n]*\n"
                         r"\s+Arguments: ?([^\n]*)", out):
        sizes = [a.split("@")[0] for a in m.group(3).split()]
        lines.append("%s:%s %s" % (m.group(1), m.group(2), " ".join(sizes)))
    return "".join(l.rstrip() + "\n" for l in sorted(lines))


def locked_down():
    """Is the kernel in lockdown (integrity or confidentiality)?  Then it
    refuses bpf_probe_write_user.  The lockdown file is in securityfs,
    which a machine may not have mounted: mounted here then (as root).
    No lockdown file: no lockdown LSM."""
    path = "/sys/kernel/security/lockdown"
    if not os.path.exists(path) and os.path.isdir("/sys/kernel/security") and \
            not os.listdir("/sys/kernel/security"):
        subprocess.run(["mount", "-t", "securityfs", "securityfs", "/sys/kernel/security"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with open(path) as f:
            return "[none]" not in f.read()
    except OSError:
        return False


def case_kind(name):
    """dis, err, tst, run or cmd: what kind of case the file NAME is; None
    for the other files (expected output, arguments, inputs)."""
    if name.endswith(".cmd"):
        return "cmd"
    kind = name.split(".")[0]
    if name.endswith(".d") and kind in ("dis", "err", "tst", "run"):
        return kind
    return None


def readable_by_all(top):
    """Directories under top (and top) searchable and files readable by
    everyone: a copy keeps its source's modes, which may be private."""
    os.chmod(top, 0o755)
    for root, dirs, files in os.walk(top):
        for d in dirs:
            os.chmod(os.path.join(root, d), 0o755)
        for f in files:
            path = os.path.join(root, f)
            os.chmod(path, os.stat(path).st_mode | 0o444)


class Golden:
    def __init__(self, dtrace, directory, update, unprivileged=False):
        self.dtrace = dtrace
        self.dir = os.path.abspath(directory)
        self.update = update
        self.unprivileged = unprivileged
        # how the cases that only compile run dtrace: as given, or (with
        # --unprivileged, as root) a copy of it, in a copy of DIR, through setpriv
        self.prefix = []
        self.compile_dtrace = dtrace
        self.compile_dir = self.dir
        self.passed = 0
        self.failed = []
        self.skipped = []

    def drop_privileges(self, tmp):
        """Set up prefix, compile_dtrace and compile_dir for --unprivileged;
        False (with the reason in failed) when the process they give is
        privileged."""
        if os.geteuid() == 0:
            if shutil.which(NOBODY[0]) is None:
                self.failed.append("--unprivileged: no %s (util-linux)" % NOBODY[0])
                return False
            top = os.path.join(tmp, "unprivileged")
            os.mkdir(top)
            shutil.copy(self.dtrace, os.path.join(top, "dtrace"))
            shutil.copytree(self.dir, os.path.join(top, "w"))
            readable_by_all(top)
            self.prefix = NOBODY
            self.compile_dtrace = os.path.join(top, "dtrace")
            self.compile_dir = os.path.join(top, "w")
            # tmp itself is private to us (mkdtemp); the copies are not
            os.chmod(tmp, 0o711)
        rc, status, err = run(self.prefix + ["cat", "/proc/self/status"], self.compile_dir)
        fields = dict(l.split(":", 1) for l in status.splitlines() if ":" in l)
        uids = fields.get("Uid", "0").split()
        caps = fields.get("CapEff", "?").strip()
        if rc != 0 or "0" in uids or caps.strip("0"):
            self.failed.append("--unprivileged: the process is privileged or failed: exit "
                               "status %d, uids %s, capabilities %s\n%s" %
                               (rc, " ".join(uids), caps, err))
            return False
        return True

    def compile(self, name, flags):
        """dtrace FLAGS -s NAME NAME.args's arguments..., in compile_dir."""
        args = []
        argfile = os.path.join(self.dir, name + ".args")
        if os.path.exists(argfile):
            with open(argfile) as f:
                args = f.read().split()
        return run(self.prefix + [self.compile_dtrace] + flags + ["-s", name] + args,
                   self.compile_dir)

    def check_text(self, name, expected_path, got):
        if self.update:
            with open(expected_path, "w") as f:
                f.write(got)
            return True
        if not os.path.exists(expected_path):
            self.failed.append("%s: missing %s" % (name, os.path.basename(expected_path)))
            return False
        with open(expected_path) as f:
            want = f.read()
        if want != got:
            self.failed.append("%s: output differs\n--- expected\n%s--- got\n%s" %
                               (name, want, got))
            return False
        return True

    def err_case(self, name):
        tag = name.split(".")[1]
        rc, _, err = self.compile(name, ["-x", "errtags", "-e"])
        if rc != 1:
            self.failed.append("%s: exit status %d, expected 1\n%s" % (name, rc, err))
            return
        first = err.splitlines()[0] if err else ""
        if "[%s]" % tag not in first:
            self.failed.append("%s: expected tag [%s] in: %s" % (name, tag, first))
            return
        if self.check_text(name, os.path.join(self.dir, name + ".err"), err):
            self.passed += 1

    def dis_case(self, name):
        rc, out, err = self.compile(name, ["-e", "-S"])
        if rc != 0 or out or not err:
            self.failed.append("%s: dtrace -e -S: exit status %d, %d bytes on stdout, "
                               "%d on stderr, expected 0, none and some\n%s" %
                               (name, rc, len(out), len(err), err))
            return
        if self.check_text(name, os.path.join(self.dir, name + ".dis"), err):
            self.passed += 1

    def tst_case(self, name, tmp):
        # every tst file compiles cleanly with -e (arguments from NAME.args)
        rc, _, err = self.compile(name, ["-e"])
        if rc != 0 or err:
            self.failed.append("%s: dtrace -e failed (%d)\n%s" % (name, rc, err))
            return
        with open(os.path.join(self.dir, name), errors="replace") as f:
            if not re.search(r"^\s*provider\s", f.read(), re.M):
                self.passed += 1
                return
        hdr = os.path.join(tmp, name[:-2] + ".h")
        rc, _, err = run([self.dtrace, "-h", "-s", name, "-o", hdr], self.dir)
        if rc != 0:
            self.failed.append("%s: dtrace -h failed (%d)\n%s" % (name, rc, err))
            return
        src = os.path.join(tmp, "use.c")
        with open(src, "w") as f:
            f.write('#include "%s"\nint main(void) { return 0; }\n' % os.path.basename(hdr))
        for cc, lang in (("cc", "c"), ("c++", "c++")):
            for extra in ([], ["-DDTRACE_PROBES_DISABLED"]):
                rc, _, err = run([cc, "-x", lang, "-Wall", "-Wextra", "-Werror"] + extra +
                                 ["-c", src, "-o", os.path.join(tmp, "use.o")], tmp)
                if rc != 0:
                    self.failed.append("%s: header does not build as %s %s\n%s" %
                                       (name, lang, " ".join(extra), err))
                    return
        user = os.path.join(self.dir, name[:-2] + ".c")
        if os.path.exists(user):
            notes = None
            for cc, lang, opt in (("cc", "c", "-O0"), ("cc", "c", "-O2"), ("c++", "c++", "-O2")):
                obj = os.path.join(tmp, "fire.o")
                rc, _, err = run([cc, "-x", lang, opt, "-Wall", "-Wextra", "-Werror", "-I", tmp,
                                  "-c", user, "-o", obj], tmp)
                if rc != 0:
                    self.failed.append("%s: %s does not build as %s\n%s" % (name, user, lang, err))
                    return
                got = note_sizes(obj)
                if notes is not None and got != notes:
                    self.failed.append("%s: notes differ between compilers\n%s\n%s" %
                                       (name, notes, got))
                    return
                notes = got
            if not self.check_text(name, os.path.join(self.dir, name + ".notes"), notes):
                return
        # the whole header is pinned only where a golden .h exists (the provider area)
        expected = os.path.join(self.dir, name + ".h")
        if os.path.exists(expected):
            with open(hdr) as f:
                text = fold_site(f.read())
            if text is None:
                self.failed.append("%s: the header does not embed %s verbatim" % (name, SITE_H))
                return
            if not self.check_text(name, expected, text):
                return
        self.passed += 1

    def skip(self, name, conds):
        """True (and why noted) when a skipif/skipunless condition says so."""
        env = dict(os.environ, DTRACE=self.dtrace)
        for kind, cmd in conds:
            cmd = re.sub(r"^dtrace\b", '"$DTRACE"', cmd)
            p = subprocess.run(cmd, shell=True, cwd=self.dir, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=120)
            if (p.returncode == 0) == (kind == "skipif"):
                lines = p.stdout.decode("utf-8", "replace").strip().splitlines()
                why = lines[-1] if lines else "%s: %s exited %d" % (kind, cmd, p.returncode)
                self.skipped.append("%s: %s" % (name, why))
                return True
        return False

    def cmd_case(self, name):
        with open(os.path.join(self.dir, name)) as f:
            lines = f.read().splitlines()
        want_rc, setup, args, creates, conds = 0, [], None, [], []
        for line in lines:
            if line.startswith("# skipif: ") or line.startswith("# skipunless: "):
                kind, cmd = line[2:].split(": ", 1)
                conds.append((kind, cmd))
            elif line.startswith("# exit "):
                want_rc = int(line[7:])
            elif line.startswith("# setup: "):
                setup.append(line[9:].split())
            elif line.startswith("# creates: "):
                creates.append(line[11:].strip())
            elif line.strip() and not line.startswith("#"):
                args = line.split()
        if self.skip(name, conds):
            return
        work = os.path.join(tempfile.mkdtemp(prefix="golden-"), "w")
        try:
            shutil.copytree(self.dir, work)
            for s in setup:
                s = [self.dtrace if a == "dtrace" else a for a in s]
                rc, _, err = run(s, work)
                if rc != 0:
                    self.failed.append("%s: setup %s failed\n%s" % (name, " ".join(s), err))
                    return
            rc, out, err = run([self.dtrace] + args, work)
            if rc != want_rc:
                self.failed.append("%s: exit status %d, expected %d\n%s" %
                                   (name, rc, want_rc, err))
                return
            missing = [c for c in creates if not os.path.isfile(os.path.join(work, c))]
            if missing:
                self.failed.append("%s: did not write %s" % (name, ", ".join(missing)))
                return
            outf = os.path.join(self.dir, name + ".out")
            ok_out = not os.path.exists(outf) or self.check_text(name, outf, out)
            if self.check_text(name, os.path.join(self.dir, name + ".err"), err) and ok_out:
                self.passed += 1
        finally:
            shutil.rmtree(os.path.dirname(work), ignore_errors=True)

    def run_case(self, name):
        with open(os.path.join(self.dir, name)) as f:
            text = f.read()
        setup, args, want_rc, lockdown, conds = [], [], 0, False, []
        for m in re.finditer(r"@(setup|args|exit|lockdown|skipif|skipunless): *(.*?) *(?:\*/)?$",
                             text, re.M):
            if m.group(1) in ("skipif", "skipunless"):
                conds.append((m.group(1), m.group(2)))
            elif m.group(1) == "setup":
                setup.append(m.group(2))
            elif m.group(1) == "args":
                args += shlex.split(m.group(2))
            elif m.group(1) == "lockdown":
                lockdown = locked_down()
            else:
                want_rc = int(m.group(2))
        if lockdown:
            want_rc = 1
        if self.skip(name, conds):
            return
        work = os.path.join(tempfile.mkdtemp(prefix="golden-"), "w")
        try:
            shutil.copytree(self.dir, work)
            env = dict(os.environ, DTRACE=self.dtrace)
            for s in setup:
                p = subprocess.run(s, shell=True, cwd=work, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, timeout=120)
                if p.returncode != 0:
                    self.failed.append("%s: setup %s failed\n%s" %
                                       (name, s, p.stdout.decode("utf-8", "replace")))
                    return
            rc, out, err = run(["taskset", "-c", "0", self.dtrace, "-s", name] + args, work)
            err = re.sub(r"DIF offset \d+", "DIF offset <n>", err)
            err = merge_drops(err)
            out = re.sub(r'"offset":\d+', '"offset":"<n>"', out)
            out = "".join(json_ids(line) for line in out.splitlines(True))
            if rc != want_rc:
                self.failed.append("%s: exit status %d, expected %d\n%s" %
                                   (name, rc, want_rc, err))
                return
            if lockdown:
                ok_out = True
                errf = os.path.join(self.dir, name + ".lockdown.err")
            else:
                ok_out = self.check_text(name, os.path.join(self.dir, name + ".out"), out)
                errf = os.path.join(self.dir, name + ".err")
            if not os.path.exists(errf) and err == "":
                ok_err = True
            else:
                ok_err = self.check_text(name + " (stderr)", errf, err)
            if ok_out and ok_err:
                self.passed += 1
        finally:
            shutil.rmtree(os.path.dirname(work), ignore_errors=True)

    def main(self):
        tmp = tempfile.mkdtemp(prefix="golden-")
        try:
            if self.unprivileged and not self.drop_privileges(tmp):
                names = []
            else:
                names = sorted(os.listdir(self.dir))
            for name in names:
                kind = case_kind(name)
                if kind is None:
                    continue
                if self.unprivileged and kind not in ("dis", "err"):
                    # tst cases build headers as root, run and cmd ones trace
                    self.failed.append("%s: not a case --unprivileged can run" % name)
                elif kind == "dis":
                    self.dis_case(name)
                elif kind == "err":
                    self.err_case(name)
                elif kind == "tst":
                    self.tst_case(name, tmp)
                elif kind == "cmd":
                    self.cmd_case(name)
                else:
                    self.run_case(name)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        for f in self.failed:
            print("FAIL " + f)
        for s in self.skipped:
            print("SKIP " + s)
        print("%d passed, %d failed" % (self.passed, len(self.failed)))
        return 1 if self.failed or self.passed == 0 else 0


if __name__ == "__main__":
    options = [a for a in sys.argv[1:] if a.startswith("--")]
    operands = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(operands) != 2 or set(options) - {"--update", "--unprivileged"}:
        sys.exit(__doc__)
    sys.exit(Golden(os.path.abspath(operands[0]), operands[1], "--update" in options,
                    "--unprivileged" in options).main())
