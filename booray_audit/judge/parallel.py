"""`--jobs N`: replay a file's hands in parallel processes, results in file order.

The parent reads the file as one job does (so every problem is reported at the
same place, whatever N is), works out each hand's table (rules, seats, dealer:
they follow from the record alone), and sends hands in small batches to the
workers, which replay them (the cinch judge is most of the cost).  The parent
then settles each hand on its session's pot chain in hand order.  At most
``AHEAD`` batches per worker are in flight, so memory stays bounded by the
batch size, not by the file or the session, however large.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections import deque
from typing import Iterator

from ..notation import reader as notation
from .. import record as r
from .audit import HandFailed, Resume, SessionAudit, SessionStart, failure, replay_hand
from ..cinch.compiled import NODES
from ..rules.profiles import Rules

BATCH = 16  # hands per task: enough to amortise the hand-over, small enough to stay balanced
AHEAD = 4   # batches in flight per worker


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


def _replay_batch(job) -> list:
    hands, cinch_nodes = job
    out: list = []
    for hand, table in hands:
        try:
            out.append(replay_hand(hand, table, cinch_nodes))
        except MemoryError:
            raise
        except Exception as e:  # noqa: BLE001 - reported at the hand, as in one process
            out.append(HandFailed(failure(e)))
    return out


def _given(rep):
    """A replay done in a worker, or the failure it gave, raised (``SessionAudit.checked``)."""
    if isinstance(rep, HandFailed):
        raise rep
    return rep


def audit_parallel(path: str, jobs: int, override: Rules | None, cinch_nodes: int = NODES,
                   known=None) -> Iterator:
    """Items as ``audit(notation.read(path))`` yields them, the hands replayed by ``jobs``
    processes.  ``known``: a filter of the reader's stream that puts a ``Resume`` in place
    of hands audited before (the store's)."""
    notation.regular(path)
    try:
        stream = open(path, "rb")
    except IsADirectoryError:
        raise notation.ReadError(f"{path}: is a folder, not a file") from None
    except OSError as e:
        raise notation.ReadError(f"{path}: cannot read: {e.strerror or e}") from None

    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    # the output in file order: ("item", value) | ("end", session) | ("hands", result, [(session, hand, table)])
    queue: deque = deque()
    batch: list = []
    in_flight = 0

    def flush():
        nonlocal batch, in_flight
        if batch:
            job = ([(hand, table) for _, hand, table in batch], cinch_nodes)
            queue.append(("hands", pool.apply_async(_replay_batch, (job,)), batch))
            in_flight += 1
            batch = []

    def drain(limit: int) -> Iterator:
        """Hand on finished output in order until at most ``limit`` batches are in flight."""
        nonlocal in_flight
        while queue and (queue[0][0] != "hands" or in_flight > limit or queue[0][1].ready()):
            what, value, *rest = queue.popleft()
            if what == "item":
                yield value
            elif what == "end":
                yield value.end()
            elif what == "lost":
                value.lost(*rest)
            elif what == "resume":
                out = value.resume(*rest)
                if out is not None:
                    yield out
            else:
                in_flight -= 1
                for (session, hand, table), rep in zip(rest[0], value.get()):
                    out = session.checked(hand, table, lambda rep=rep: _given(rep))
                    if out is not None:
                        yield out

    with stream, ctx.Pool(jobs, initializer=_quiet_on_broken_pipe) as pool:
        current: SessionAudit | None = None
        items = notation.Reader(r.printable(path)).read(stream)
        for it in known(items) if known else items:
            if isinstance(it, Resume):
                flush()
                queue.append(("resume", current, it, current.table(it.hand)))
                yield from drain(jobs * AHEAD)
                continue
            if isinstance(it, r.Hand):
                batch.append((current, it, current.table(it)))
                if len(batch) >= BATCH:
                    flush()
                    yield from drain(jobs * AHEAD)
                continue
            flush()
            if isinstance(it, r.Session):
                if current is not None:
                    queue.append(("end", current))
                current = SessionAudit(it, override, cinch_nodes)
                queue.append(("item", SessionStart(it, current.rules, current.problems)))
            else:
                if isinstance(it, r.SyntaxProblem) and it.hand is not None and current is not None:
                    queue.append(("lost", current, it.hand))
                queue.append(("item", it))
            yield from drain(jobs * AHEAD)
        flush()
        if current is not None:
            queue.append(("end", current))
        yield from drain(0)
