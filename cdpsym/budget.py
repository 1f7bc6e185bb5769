"""Time and memory budgets for the ``cdpsym`` command (and anything else that wants one).

:class:`Budget` is a context manager: inside it the address space is capped
(``resource.setrlimit(RLIMIT_AS)``; a :class:`MemoryError` when exceeded) and a
timer raises :class:`BudgetExceeded` in the calling thread when the time is up
(``SIGALRM`` in the main thread, an asynchronous exception elsewhere).
:class:`BudgetExceeded` derives from :class:`BaseException`, like
:class:`KeyboardInterrupt`, so the ``except Exception`` of library code (which
turns a failing ground truth into a failed check) does not swallow it.

>>> import time
>>> with Budget(seconds=0.2, memory_mb=None, label="sleeping") as b:
...     try:
...         time.sleep(5)
...     except BudgetExceeded as exc:
...         print(exc)
sleeping took more than 0.2 s

A Python-level timer cannot stop native code that never returns to the
interpreter (a single huge Arb or GMP operation holds the GIL).  The command
line therefore runs in a forked child watched by its parent
(:func:`supervise`): the child keeps the parent informed of its current
deadline, and the parent kills it ``GRACE`` seconds after that deadline,
printing the same one-line message.  Nothing the child had computed reaches
stdout (the command buffers its output and prints it only on success).
"""

from __future__ import annotations

import ctypes
import mmap
import os
import select
import signal
import struct
import sys
import threading
import time
from typing import Callable

__all__ = ["Budget", "BudgetExceeded", "supervise", "GRACE"]

#: seconds the supervising parent waits past the child's deadline before killing it
GRACE = 5.0


class BudgetExceeded(BaseException):
    """The time budget ran out (``str(exc)``: ``"<label> took more than <s> s"``)."""

    def __init__(self, label: str, seconds: float) -> None:
        super().__init__(f"{label} took more than {seconds:g} s")
        self.label = label
        self.seconds = seconds


# -- the supervised child reports its deadline and the message to print through a shared page ----------------

_SHARED: mmap.mmap | None = None  # set in the child by supervise()
_HEADER = struct.Struct("dI")     # deadline (time.monotonic(), 0 = none), message length


def _publish(deadline: float, message: str) -> None:
    if _SHARED is None:
        return
    data = message.encode("utf-8", "replace")[: mmap.PAGESIZE - _HEADER.size]
    _SHARED[_HEADER.size:_HEADER.size + len(data)] = data
    _SHARED[:_HEADER.size] = _HEADER.pack(deadline, len(data))


def _read(shared: mmap.mmap) -> tuple[float, str]:
    deadline, n = _HEADER.unpack(shared[:_HEADER.size])
    return deadline, shared[_HEADER.size:_HEADER.size + n].decode("utf-8", "replace")


class Budget:
    """Cap time (``seconds``) and address space (``memory_mb``) inside a ``with`` block.

    :meth:`arm` restarts the clock with a new label (``cdpsym verify`` gives
    each theorem its own budget).  ``None`` means no limit.  On exit the
    previous signal handler, timer and memory limit are restored.
    """

    def __init__(self, seconds: float | None, memory_mb: int | None, label: str = "the command",
                 hint: str = "") -> None:
        self.seconds = seconds
        self.memory_mb = memory_mb
        self.label = label
        self.hint = hint
        self._saved_handler: object = None
        self._handler_installed = False
        self._saved_timer: tuple[float, float] = (0.0, 0.0)
        self._entered = 0.0
        self._saved_limit: tuple[int, int] | None = None
        self._timer: threading.Timer | None = None
        self._thread_id = threading.get_ident()
        self._main = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
        self._active = False

    # -- time ------------------------------------------------------------------------------------------------
    def _expired(self, *_: object) -> None:
        if self._active:
            raise BudgetExceeded(self.label, self.seconds or 0.0)

    def arm(self, seconds: float | None = None, label: str | None = None) -> None:
        """(Re)start the clock: *seconds* from now (default: the budget's), under *label*."""
        if seconds is not None:
            self.seconds = seconds
        if label is not None:
            self.label = label
        self._cancel()
        if not self._active or self.seconds is None:
            _publish(0.0, "")
            return
        _publish(time.monotonic() + self.seconds, self.message())
        if self._main:  # then every second: an exception swallowed by an ``except BaseException`` is raised again
            signal.setitimer(signal.ITIMER_REAL, self.seconds, 1.0)
        else:  # not the main thread: an asynchronous exception, delivered at the next bytecode
            target = self._thread_id

            def fire() -> None:
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target),
                                                           ctypes.py_object(_ThreadBudgetExceeded))

            _ThreadBudgetExceeded.current = self
            self._timer = threading.Timer(self.seconds, fire)
            self._timer.daemon = True
            self._timer.start()

    def _cancel(self) -> None:
        if self._main:
            signal.setitimer(signal.ITIMER_REAL, 0)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def message(self) -> str:
        """The one line printed when the time is up."""
        text = f"time budget exceeded: {self.label} took more than {self.seconds:g} s"
        return text + (f" ({self.hint})" if self.hint else "")

    # -- the block ---------------------------------------------------------------------------------------------
    def __enter__(self) -> "Budget":
        self._active = True
        self._entered = time.monotonic()
        if self._main:
            self._saved_timer = signal.getitimer(signal.ITIMER_REAL)
            self._saved_handler = signal.signal(signal.SIGALRM, self._expired)
            self._handler_installed = True
        if self.memory_mb is not None:
            self._limit_memory(self.memory_mb)
        self.arm()
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self._active = False  # from here on the timer's signal is a no-op
        finally:
            self._cleanup()

    def _cleanup(self) -> None:
        self._cancel()
        _publish(0.0, "")
        if self._handler_installed:
            signal.signal(signal.SIGALRM, self._saved_handler if self._saved_handler is not None else signal.SIG_DFL)
            self._handler_installed = False
            delay, interval = self._saved_timer
            if delay > 0:  # someone else's timer was running: let it go on
                signal.setitimer(signal.ITIMER_REAL, max(1e-3, delay - (time.monotonic() - self._entered)), interval)
        if self._saved_limit is not None:
            import resource

            try:
                resource.setrlimit(resource.RLIMIT_AS, self._saved_limit)
            except (ValueError, OSError):  # pragma: no cover - raising back to the saved soft limit is allowed
                pass
            self._saved_limit = None

    def _limit_memory(self, megabytes: int) -> None:
        try:
            import resource
        except ImportError:  # pragma: no cover - not POSIX: no memory budget
            return
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        want = megabytes * 1024 * 1024
        if hard != resource.RLIM_INFINITY:
            want = min(want, hard)
        if soft != resource.RLIM_INFINITY and soft <= want:
            return  # already at least as strict
        try:
            resource.setrlimit(resource.RLIMIT_AS, (want, hard))
            self._saved_limit = (soft, hard)
        except (ValueError, OSError):  # pragma: no cover - e.g. a platform without RLIMIT_AS
            pass


class _ThreadBudgetExceeded(BudgetExceeded):
    """Raised asynchronously in a non-main thread (the class is instantiated by the interpreter)."""

    current: Budget | None = None

    def __init__(self) -> None:
        b = _ThreadBudgetExceeded.current
        super().__init__(b.label if b else "the command", (b.seconds or 0.0) if b else 0.0)


# -- the supervising parent ---------------------------------------------------------------------------------------

def supervise(run: Callable[[], int], *, memory_hint: str = "") -> int:
    """Run *run* in a forked child; kill it :data:`GRACE` s after its published deadline.

    Returns the child's exit code.  A child that has to be killed, or dies of
    a signal that native code raises when memory runs out, gets a one-line
    message on stderr and exit code 2.  Falls back to calling *run* directly
    where ``fork`` is unavailable or threads are already running.
    """
    global _SHARED
    if not hasattr(os, "fork") or threading.active_count() > 1 or os.environ.get("CDPSYM_NO_FORK"):
        return run()
    shared = mmap.mmap(-1, mmap.PAGESIZE)
    shared[:_HEADER.size] = _HEADER.pack(0.0, 0)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # pragma: no cover
            pass
    pid = os.fork()
    if pid == 0:  # the child
        _SHARED = shared
        code = 4
        try:
            code = run()
        except SystemExit as exc:
            code = exc.code
        except BaseException:  # pragma: no cover - run() reports its own errors
            code = 4
        finally:
            if code is None:
                code = 0
            elif not isinstance(code, int):
                print(code, file=sys.stderr)
                code = 1
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            os._exit(code)
    return _watch(pid, shared, memory_hint)


def _watch(pid: int, shared: mmap.mmap, memory_hint: str) -> int:
    """The parent: wait for the child, forward termination, enforce the hard deadline."""

    def forward(signum: int, _frame: object) -> None:
        try:
            os.kill(pid, signum)
        except ProcessLookupError:  # pragma: no cover
            pass

    previous = {}
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        # SIGINT from a terminal reaches the child too (same process group): the child handles it
        previous[sig] = signal.signal(sig, signal.SIG_IGN if sig == signal.SIGINT else forward)
    pidfd = None
    if hasattr(os, "pidfd_open"):
        try:
            pidfd = os.pidfd_open(pid)
        except OSError:  # pragma: no cover - an old kernel
            pidfd = None
    try:
        pause = 0.002
        while True:
            wpid, status = os.waitpid(pid, os.WNOHANG)
            if wpid:
                break
            deadline, message = _read(shared)
            if deadline and time.monotonic() > deadline + GRACE:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                print(f"cdpsym: {message or 'time budget exceeded'}", file=sys.stderr, flush=True)
                return 2
            if pidfd is not None:  # wakes as soon as the child exits
                try:
                    select.select([pidfd], [], [], 0.5)
                except InterruptedError:  # pragma: no cover
                    pass
            else:
                time.sleep(pause)
                pause = min(pause * 2, 0.05)
    finally:
        if pidfd is not None:
            os.close(pidfd)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig in (signal.SIGKILL, signal.SIGABRT, signal.SIGBUS, getattr(signal, "SIGXCPU", -1)):
            name = signal.Signals(sig).name
            print(f"cdpsym: the computation was killed by {name}, most likely for lack of memory"
                  f"{' (' + memory_hint + ')' if memory_hint else ''}", file=sys.stderr, flush=True)
            return 2
        if sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            return 128 + sig
        name = signal.Signals(sig).name
        print(f"cdpsym: internal error: the computation died of {name}", file=sys.stderr, flush=True)
        return 4
    return os.WEXITSTATUS(status)
