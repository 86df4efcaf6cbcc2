"""Scripting D from Python: dtrace.Consumer, over libdtrace.

    import dtrace

    with dtrace.Consumer('''
            python_rt$target:::function-entry { @calls[copyinstr(arg0)] = count(); }
            tick-1s { printf("%d calls\\n", 3); }
         ''', target=["python3", "app.py"]) as c:
        for rec in c.records():          # until exit(), the target's exit, or stop()
            print(rec.probe, rec.data)
        print(c.aggregations())          # {"calls": {("f",): 1000, ...}}

Records carry values, not text: trace() gives an int or a str, tracemem()
bytes, printf() its formatted str. Aggregations are dicts keyed by tuples
of the keys; quantizations give a list of (min, max, count) buckets, None
for an open end. The values are made from libdtrace's records API
(dtrace_consume(), dtrace_aggregate_walk()) by dtrace._consumer.
"""
import os
import signal
from collections import deque, namedtuple

from dtrace import _consumer
from dtrace._consumer import DTraceError

__all__ = ["Consumer", "Record", "CompileError", "DTraceError"]


class CompileError(DTraceError):
    """A D program did not compile: `tag` (e.g. "D_SYNTAX"), `file`,
    `line`, `column`, `message` and the offending `source` line."""

    def __init__(self, message, tag, file, line, column, source):
        super().__init__("%s:%d:%d: %s: %s" % (file, line, column, tag, message))
        self.message, self.tag, self.file = message, tag, file
        self.line, self.column, self.source = line, column, source


Probe = namedtuple("Probe", "provider module function name")


class Record:
    """What one clause recorded when its probe fired."""
    __slots__ = ("cpu", "id", "probe", "data")

    def __init__(self, cpu, id, probe, data):
        self.cpu, self.id, self.probe, self.data = cpu, id, probe, data

    def __repr__(self):
        return "Record(cpu=%r, probe=%r, data=%r)" % (self.cpu, ":".join(self.probe), self.data)


class _Key(dict):
    """A symbol or a stack as an aggregation's key: the dict a record
    gives, hashable (by its process, address or frames, and name)."""
    __slots__ = ()

    def __hash__(self):
        frames = self.get("frames")
        if frames is not None:
            return hash((self.get("pid"), tuple(f.get("address") for f in frames)))
        return hash((self.get("pid"), self.get("address"), self.get("name")))


class Consumer:
    """Consumer(program=None, *args, options=None, target=None, pid=None,
    zdefs=False, cpp=False): a dtrace handle.

    program: D source, compiled at once (or call compile()); args: the
    macro arguments $1...; options: dtrace options ({"bufsize": "4m",
    "switchrate": "10ms", ...}); quiet: only what clauses trace or print
    makes records (False: also one empty record per firing, as dtrace
    without -q); target: an argv to start stopped (it becomes
    $target and runs once go() is called); pid: a process to grab instead;
    zdefs: permit descriptions that match nothing yet (-Z).

    One thread uses a consumer at a time. Tracing needs root (CAP_BPF)."""

    def __init__(self, program=None, *args, options=None, target=None, pid=None, zdefs=False,
                 cpp=False, quiet=True):
        self._h = _consumer.Handle()
        self._flags = _consumer.C_CPP if cpp else 0
        self._started = self._done = self._stopped = False
        self._aggs = {}
        self._probes = {}   # probe id -> Probe
        self._unread = deque()  # records read and not yet given
        self.errors = []    # fault objects (docs/json.md "error"), as dicts
        self.drops = []     # drop objects, as dicts
        self.messages = []  # the same, as dtrace(1) words them
        self.target_status = None
        self._spawned = 0
        self._error = None
        try:
            if quiet:
                self.setopt("quiet")
            if zdefs:
                self.setopt("zdefs")
            for k, v in (options or {}).items():
                self.setopt(k, v)
            if target is not None:
                if isinstance(target, str):
                    raise TypeError("target: an argv list, not a str")
                self._spawned = self._h.spawn(list(target))
            elif pid is not None:
                self._h.grab(pid)
            if program is not None:
                self.compile(program, *args)
        except BaseException:
            self.close()  # a spawned target is killed, not left running untraced
            raise

    # ---------------------------------------------------------- set-up

    def setopt(self, name, value=None):
        """Set a dtrace option (value None for a boolean one)."""
        if name == "oformat":
            raise ValueError("oformat: a Consumer reads records, not output")
        self._h.setopt(name, None if value is None else str(value))

    def compile(self, program, *args):
        """Compile and enable a D program (several may be added before go());
        returns the number of probes it matched."""
        try:
            self._h.compile(program, [str(a) for a in args], self._flags)
        except _consumer.CompileError as e:
            raise CompileError(*e.args) from None
        return self._h.exec()[1]

    @property
    def target(self):
        """The target's pid ($target), or 0."""
        return self._h.target()

    def go(self):
        """Start tracing (BEGIN fires); a spawned or grabbed target runs."""
        if not self._started:
            self._h.go(self._h.target() != 0)
            self._started = True

    # ---------------------------------------------------------- data

    def _records(self, rows, into):
        probes = self._probes
        for cpu, probe_id, prov, mod, func, name, data in rows:
            probe = probes.get(probe_id)
            if probe is None:
                probe = probes[probe_id] = Probe(prov, mod, func, name)
            into.append(Record(cpu, probe_id, probe, data))

    def _events(self):
        errors, drops, messages = self._h.take_events()
        self.errors.extend(errors)
        self.drops.extend(drops)
        self.messages.extend(messages)

    def _work(self, into):
        """Read the buffers into `into`. After an error, what was read
        before it still comes; the error is raised next (_raise_pending)."""
        status, rows = self._h.work()
        self._records(rows, into)
        self._events()
        if status == 1:
            self._done = True
        elif status < 0:
            self._done = True
            try:
                self._h.error("processing aborted")
            except DTraceError as e:
                self._error = e

    def _raise_pending(self):
        if self._error is not None:
            e, self._error = self._error, None
            raise e

    def poll(self):
        """Wait (at most switchrate) and return the records that came; []
        also once done. Ctrl-C raises KeyboardInterrupt here, and the
        consumer stays usable: stop() then aggregations() still work.
        Records a records() loop left unread come first."""
        out = list(self._unread)
        self._unread.clear()
        if out:
            return out
        self._raise_pending()
        if self._done:
            return out
        self.go()
        self._h.sleep()
        if not self._stopped and self.target_status is None:
            st = self._h.target_exited()
            if st is not None:
                self.target_status = st
                self.stop()
        self._work(out)
        return out

    def records(self, timeout=None):
        """Iterate over records until exit() is called, the target exits,
        stop() is called, or `timeout` seconds pass (then END fires and
        its records come last). A loop left early (break, an exception)
        loses nothing: the records read and not yet given come first next
        time."""
        import time
        deadline = None if timeout is None else time.monotonic() + timeout
        self.go()
        unread = self._unread
        # records that came while enabling (BEGIN's) are read at once
        self._work(unread)
        while True:
            while unread:
                yield unread.popleft()
            if self._done:
                break
            if deadline is not None and not self._stopped and time.monotonic() > deadline:
                self.stop()
            unread.extend(self.poll())
        self._raise_pending()

    def run(self, callback=None, timeout=None):
        """Trace to the end, calling callback(record) for each record;
        returns aggregations()."""
        for rec in self.records(timeout):
            if callback is not None:
                callback(rec)
        return self.aggregations()

    def stop(self):
        """Stop tracing: END fires; its records come with the next poll."""
        if self._started and not self._stopped:
            self._stopped = True
            self._h.stop()

    def aggregations(self):
        """{name: {keys tuple: value}}: every aggregation's entries now
        (a snapshot: callable while tracing, and after). The anonymous
        aggregation's name is ""; clear() and trunc() show as missing
        entries."""
        if not self._started:
            return {}
        aggs = {}
        for name, keys, value in self._h.aggregate():
            entries = aggs.get(name)
            if entries is None:
                entries = aggs[name] = {}
            if dict in map(type, keys):
                keys = tuple(_Key(k) if type(k) is dict else k for k in keys)
            entries[keys] = value
        self._aggs = aggs
        self._events()
        return self._aggs

    @property
    def exit_status(self):
        """exit()'s argument once the program called it, else None."""
        status, value = self._h.status()
        return value if status == 2 else None

    # ---------------------------------------------------------- lifetime

    def close(self):
        """Detach every probe and free the handle (idempotent). A target
        the consumer started and that still runs is killed (a grabbed one
        is released and goes on)."""
        pid, self._spawned = self._spawned, 0
        if pid and self.target_status is None and self._h.target_exited() is None:
            os.kill(pid, signal.SIGKILL)
        self._h.close()
        if pid:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:  # libdtrace reaped it
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
