"""`--jobs N`: audit a file's sessions in parallel processes, results in file order.

Hands depend on each other only through the pot chain inside a session, so each
session is audited whole by one worker; the parent cuts the file into sessions
(by line, without parsing) and hands on the results in order, so the output is
the same as with one process.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from typing import Iterator

from . import notation
from .audit import audit
from .cinch import NODES
from .rules import Rules


def _quiet_on_broken_pipe() -> None:
    """A worker whose parent is gone (killed) ends silently: on Linux the kernel kills it
    with its parent (it would otherwise wait for work forever); elsewhere it dies at its
    next write (SIGPIPE's default action, which Python ignores) instead of printing a
    BrokenPipeError."""
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    parent = os.getppid()
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(0)


def _work(job) -> list:
    lines, path, first, override, cinch_nodes = job
    return list(audit(notation.Reader(path, first).read_lines(lines), override, cinch_nodes))


def audit_parallel(path: str, jobs: int, override: Rules | None, cinch_nodes: int = NODES) -> Iterator:
    """Items as ``audit(notation.read(path))`` yields them, computed by ``jobs`` processes."""
    try:
        stream = open(path, "rb")
    except IsADirectoryError:
        raise notation.ReadError(f"{path}: is a folder, not a file") from None
    except OSError as e:
        raise notation.ReadError(f"{path}: cannot read: {e.strerror or e}") from None

    def work():
        with stream:
            for i, lines in enumerate(notation.sessions_of(stream, path)):
                yield lines, path, i, override, cinch_nodes

    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with ctx.Pool(jobs, initializer=_quiet_on_broken_pipe) as pool:
        for items in pool.imap(_work, work(), chunksize=1):
            yield from items
