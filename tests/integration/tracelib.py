"""Helpers shared by the integration tests: privileges, tracefs, compiling
test programs and running bpftrace (the independent oracle) on them.

A test that cannot trace because the machine forbids it (no CAP_BPF) is
skipped, except with CI=true, where that skip is a failure: CI machines
must trace.
"""
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import unittest

CAP_SYS_ADMIN = 21
CAP_PERFMON = 38
CAP_BPF = 39


def in_ci():
    return os.environ.get("CI", "").lower() == "true"


def effective_caps():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("CapEff:"):
                return int(line.split()[1], 16)
    return 0


def can_trace():
    caps = effective_caps()
    has = lambda c: bool(caps & (1 << c))
    return has(CAP_SYS_ADMIN) or (has(CAP_BPF) and has(CAP_PERFMON))


def require_tracing(testcase, tools=("bpftrace",)):
    """Skip (or fail under CI=true) when this machine cannot trace."""
    why = None
    if not can_trace():
        why = "no CAP_BPF/CAP_PERFMON (run as root)"
    else:
        for t in tools:
            if shutil.which(t) is None:
                why = "%s is not installed (scripts/setup installs it)" % t
                break
    if why is None:
        ensure_tracefs()
        return
    if in_ci():
        testcase.fail("cannot trace under CI=true: " + why)
    raise unittest.SkipTest(why)


def ensure_tracefs():
    """bpftrace 0.17 detaches uprobes through tracefs: mount it if needed."""
    if os.path.exists("/sys/kernel/tracing/uprobe_events"):
        return
    subprocess.run(["mount", "-t", "tracefs", "nodev", "/sys/kernel/tracing"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def run(cmd, **kw):
    """Run a command, raising with its output if it fails."""
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    kw.setdefault("text", True)
    kw.setdefault("timeout", 120)
    p = subprocess.run(cmd, **kw)
    if p.returncode != 0:
        raise AssertionError("command failed (%d): %s\nstdout:\n%s\nstderr:\n%s" %
                             (p.returncode, " ".join(cmd), p.stdout, p.stderr))
    return p


def bpftrace(script, cmd=None, pid=None, timeout=90):
    """Run a bpftrace program (optionally with -c or -p); returns
    (stdout lines, stderr).  Fails the test on bpftrace errors."""
    args = ["bpftrace", "-B", "line", "-e", script]
    if cmd is not None:
        args += ["-c", cmd]
    if pid is not None:
        args += ["-p", str(pid)]
    env = dict(os.environ, BPFTRACE_STRLEN="64")
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=timeout, env=env)
    errs = [l for l in p.stderr.splitlines()
            if "RLIMIT_MEMLOCK" not in l and l.strip()]
    if p.returncode != 0 or any("ERROR" in l for l in errs):
        raise AssertionError("bpftrace failed (%d):\n%s\n--- stdout:\n%s" %
                             (p.returncode, p.stderr, p.stdout))
    check_lost(p.stdout + p.stderr)
    return p.stdout.splitlines(), p.stderr


def bpftrace_while(script, cmd=None, app=None, action=None, timeout=90, drained=None):
    """Run bpftrace on its own (probes by path) and, once every probe is
    attached, run cmd, or wait for the already running app (which waits
    for its probes to be enabled) to finish, or call action(); then stop
    bpftrace with SIGINT as a user would.  Returns (bpftrace stdout lines,
    cmd's or app's stdout lines, or action's result).  Needed for probes in
    shared libraries and runtime images, which bpftrace -c cannot resolve
    before they are loaded.

    bpftrace stops at SIGINT without draining its perf buffers, so before
    the signal this waits until drained(lines so far) holds, or, without
    drained, until bpftrace has printed nothing for two seconds: a fixed
    pause lost events on a loaded machine."""
    env = dict(os.environ, BPFTRACE_STRLEN="64")
    # bpftrace 0.17 runs BEGIN before it attaches the other probes, but reads
    # its output only after its attach loop: "__ready__" means attached
    script = 'BEGIN { printf("__ready__\\n"); }\n' + script
    bt = subprocess.Popen(["bpftrace", "-B", "line", "-e", script], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, env=env)
    lines, errs = [], []
    cv = threading.Condition()

    def pump(stream, into):
        for l in stream:
            with cv:
                into.append(l.rstrip("\n"))
                cv.notify_all()

    readers = [threading.Thread(target=pump, args=(bt.stdout, lines), daemon=True),
               threading.Thread(target=pump, args=(bt.stderr, errs), daemon=True)]
    for r in readers:
        r.start()
    try:
        with cv:
            ok = cv.wait_for(lambda: "__ready__" in lines or bt.poll() is not None, timeout)
        if not ok or "__ready__" not in lines:
            raise AssertionError("bpftrace did not attach: %r %s" % (lines, "\n".join(errs)))
        if cmd is not None:
            result = subprocess.run(cmd, stdout=subprocess.PIPE, text=True,
                                    timeout=timeout).stdout.splitlines()
        elif app is not None:
            result = app.finish(timeout)
        else:
            result = action()
        deadline = time.monotonic() + timeout
        with cv:
            if drained is not None:
                cv.wait_for(lambda: drained(lines), timeout)
            else:
                while time.monotonic() < deadline:
                    n = len(lines)
                    cv.wait(2.0)
                    if len(lines) == n:
                        break
        interrupt(bt, timeout)
        for r in readers:
            r.join(timeout)
    finally:
        if bt.poll() is None:
            bt.kill()
            bt.wait()
    err = "\n".join(errs)
    if any("ERROR" in l for l in errs if "RLIMIT_MEMLOCK" not in l):
        raise AssertionError("bpftrace failed:\n" + err)
    check_lost("\n".join(lines) + "\n" + err)
    return [l for l in lines if l != "__ready__"], result


def interrupt(bt, timeout, every=5):
    """SIGINT bpftrace, again every `every` seconds until it exits (timeout
    in all).  bpftrace 0.17 tests its SIGINT flag only when epoll_wait fails
    with EINTR: a SIGINT that lands after epoll_wait's 100 ms timeout fired
    but before the next call is handled, then forgotten, and with no more
    events bpftrace polls forever.  The quiet wait of bpftrace_while makes
    that likely: it ends 2 s, 20 poll periods, after bpftrace's last wakeup.
    The flag is set by then: a repeat just wakes the stuck poll."""
    deadline = time.monotonic() + timeout
    while True:
        bt.send_signal(signal.SIGINT)
        try:
            return bt.wait(max(0, min(every, deadline - time.monotonic())))
        except subprocess.TimeoutExpired:
            if time.monotonic() >= deadline:
                raise


def check_lost(text):
    """bpftrace reports events its buffers dropped; say so rather than
    failing later on a count."""
    lost = [l for l in text.splitlines() if l.startswith("Lost ")]
    if lost:
        raise AssertionError("bpftrace lost events (machine too busy?): %s" % lost)


class UprobeEvent:
    """A uprobe of the kernel's own tracefs interface (no BPF), with a
    semaphore (ref_ctr) and fetch arguments, recorded in a private tracing
    instance: an oracle independent of bpftrace."""
    T = "/sys/kernel/tracing"

    def __init__(self, group, name, path, offset, sema, fetch):
        self.group, self.name = group, name
        self.defn = "p:%s/%s %s:0x%x(0x%x) %s" % (group, name, path, offset, sema,
                                                  " ".join(fetch))
        self.inst = os.path.join(self.T, "instances", "%s_%d" % (group, os.getpid()))

    def _write(self, path, text, append=False):
        # os.open: Python's "a" mode seeks, and tracefs files refuse lseek
        fd = os.open(path, os.O_WRONLY | (os.O_APPEND if append else os.O_TRUNC))
        try:
            os.write(fd, (text + "\n").encode())
        finally:
            os.close(fd)

    def __enter__(self):
        ensure_tracefs()
        try:
            self._write(os.path.join(self.T, "uprobe_events"), self.defn, append=True)
        except OSError as e:
            with open(os.path.join(self.T, "error_log")) as f:
                log = f.read().splitlines()[-3:]
            raise AssertionError("uprobe_events refused %r: %s\n%s" %
                                 (self.defn, e, "\n".join(log)))
        os.mkdir(self.inst)
        self._write(os.path.join(self.inst, "events", self.group, self.name, "enable"), "1")
        return self

    def read(self):
        with open(os.path.join(self.inst, "trace")) as f:
            return [l for l in f.read().splitlines()
                    if not l.startswith("#") and "%s:" % self.name in l]

    def __exit__(self, *exc):
        try:
            self._write(os.path.join(self.inst, "events", self.group, self.name, "enable"), "0")
        finally:
            os.rmdir(self.inst)
            self._write(os.path.join(self.T, "uprobe_events"),
                        "-:%s/%s" % (self.group, self.name), append=True)
        return False


class TempDir:
    def __init__(self, prefix):
        self.path = tempfile.mkdtemp(prefix=prefix)

    def join(self, *parts):
        return os.path.join(self.path, *parts)

    def cleanup(self):
        shutil.rmtree(self.path, ignore_errors=True)


def wait_for_line(proc, want, timeout=10):
    """Read lines of proc.stdout until one equals want; return the lines."""
    seen = []
    end = time.time() + timeout
    while time.time() < end:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line.rstrip("\n"))
        if seen[-1] == want:
            return seen
    raise AssertionError("did not see %r; saw %r" % (want, seen))


def finish(proc, timeout=60):
    """Wait for proc, then read the rest of its stdout and stderr: after a
    readline() from them, communicate() would lose what it buffered."""
    proc.wait(timeout=timeout)
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.stdout.close()
    proc.stderr.close()
    return out, err


def untraced_env():
    """The environment for a dtrace run under strace: LeakSanitizer (the
    sanitizer build) cannot work under ptrace, and says so with status 1."""
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
    return env
