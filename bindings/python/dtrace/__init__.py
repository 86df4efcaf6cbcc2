"""dtrace: stable USDT probes for Python programs (over libusdt).

    import dtrace

    with dtrace.Provider("myapp") as p:        # enabled on entry, destroyed on exit
        ...

    p = dtrace.Provider("myapp")
    start = p.probe("query-start", str, int)   # tracers see myapp:::query-start
    done = p.probe("query-done", int, dict)    # dict/list/"json": sent as JSON text
    p.enable()

    start.fire("select 1", 3)                  # converts nothing while disabled
    start.fire_lazy(lambda: (expensive(), 3))  # calls the lambda only when enabled
    if done.enabled:                            # one load of the semaphore
        ...

    @p.function                                 # fires handle-entry / handle-return
    def handle(req): ...

Trace them with dtrace(1), bpftrace or perf:

    dtrace -n 'myapp$target:::query-start { printf("%s %d\\n", copyinstr(arg0), arg1); }' -p PID
"""
import atexit
import functools

from dtrace import _usdt
from dtrace._usdt import Probe, UsdtError
from dtrace._usdt import Provider as _Provider
from dtrace.consumer import CompileError, Consumer, DTraceError, Record

__all__ = ["Provider", "Probe", "UsdtError", "runtime", "Consumer", "Record", "CompileError",
           "DTraceError"]


class Provider(_Provider):
    """Provider(name, module=None): a USDT provider declared at run time.

    Add probes with probe(), then enable() (or use the provider as a
    context manager, which enables it and destroys it at the end)."""

    def function(self, fn=None, *, name=None):
        """Decorator: fire NAME-entry before each call and NAME-return after
        it (NAME defaults to the function's name); both take no arguments.
        The probes are added to this provider (before enable(), ideally:
        adding a probe to an enabled provider rebuilds its image)."""
        def wrap(f):
            base = (name or f.__name__).replace("_", "-").strip("-") or "fn"
            entry = self.probe(base + "-entry")
            ret = self.probe(base + "-return")

            @functools.wraps(f)
            def traced(*args, **kwargs):
                entry.fire()
                try:
                    return f(*args, **kwargs)
                finally:
                    ret.fire()
            traced.entry_probe = entry
            traced.return_probe = ret
            return traced
        return wrap(fn) if fn is not None else wrap


class _Runtime:
    """The interpreter's own provider: function-entry and function-return
    for every Python function (name, file, line: char *, char *, int).

        dtrace.runtime.start()          # provider python_rt, module: the program
        dtrace -n 'python_rt$target:::function-entry { @[copyinstr(arg0)] = count(); }' -p PID

    Nothing is hooked while no tracer has a probe enabled: a watcher thread
    checks the semaphores every `interval` seconds and installs (or
    removes) a C profile function on every thread, so an untraced program
    runs at full speed. `active` says whether the hook is installed now."""

    def start(self, provider="python_rt", module=None, interval=0.05):
        _usdt.runtime_start(provider, module, interval)
        atexit.register(self.stop)

    def stop(self):
        _usdt.runtime_stop()
        atexit.unregister(self.stop)

    @property
    def running(self):
        return _usdt.runtime_running()

    @property
    def active(self):
        return _usdt.runtime_active()

    @property
    def hooked(self):
        """Whether the calling thread has the hook (a thread started while
        traced gets it within one interval)."""
        return _usdt.runtime_hooked()

    @property
    def enabled(self):
        """The runtime probes a tracer has enabled now, by name
        ("function-entry", "function-return")."""
        return frozenset(_usdt.runtime_enabled())

    def wait_active(self, timeout=None, probes=()):
        """Wait until a tracer has enabled a probe and the calling thread
        has the hook; False if `timeout` seconds passed first.

        A tracer enables its probes one after another: name them in
        `probes` (e.g. ("function-entry", "function-return")) to wait
        until each of them is enabled too."""
        import time
        want = frozenset([probes] if isinstance(probes, str) else probes)
        unknown = want - self._NAMES
        if unknown:
            raise ValueError("wait_active(): no runtime probe %s (there are %s)"
                             % (", ".join(sorted(unknown)), ", ".join(sorted(self._NAMES))))
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.hooked or not want <= self.enabled:
            if deadline is not None and time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        return True

    _NAMES = frozenset(["function-entry", "function-return"])


runtime = _Runtime()
