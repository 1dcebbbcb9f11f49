"""`--jobs N`: audit a file in parallel processes, results in file order.

Two ways.  ``audit_parts``: the file is cut where sessions start cleanly
(``notation.reader.session_starts``, about ``PART`` bytes apart); each part is
read, audited and settled by a worker on its own (sessions are independent), and
its items, made small by the caller's ``render`` (the JSON of its hands), come back to the
parent, which passes them on in file order with the session indexes counted on.
``audit_parallel``, for a file that cannot be cut so (one long session), for the
store's filter of hands audited before, and for a caller that needs every hand's
report whole: the parent reads the file as one job does, works out each hand's
table (rules, seats, dealer: they follow from the record alone), and sends hands
in small batches to the workers, which replay them (the cinch judge is most of
the cost); the parent then settles each hand on its session's pot chain in hand
order.  Either way at most ``AHEAD`` tasks per worker are in flight, so memory
stays bounded by a part or a batch, not by the file.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections import deque
from dataclasses import replace
from typing import Callable, Iterator

from ..notation import reader as notation
from .. import record as r
from .audit import HandFailed, HandReport, Resume, SessionAudit, SessionEnd, SessionStart, audit, failure, replay_hand
from ..cinch.compiled import NODES
from ..rules.profiles import Rules

BATCH = 16  # hands per task: enough to amortise the hand-over, small enough to stay balanced
AHEAD = 4   # tasks in flight per worker
PART = 256 * 1024  # bytes of the file per part (``audit_parts``); BOORAY_AUDIT_PART sets it


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
                   known=None, begin: int = 0, first_line: int = 1) -> Iterator:
    """Items as ``audit(notation.read(path))`` yields them, the hands replayed by ``jobs``
    processes.  ``known``: a filter of the reader's stream that puts a ``Resume`` in place
    of hands audited before (the store's); ``begin``, ``first_line``: read from this byte, the
    line numbered so (a place where a session starts cleanly: ``parts``)."""
    stream = notation.opened(path)
    stream.seek(begin)

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
        items = notation.Reader(r.printable(path)).read(stream, first_line)
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


def parts(path: str) -> Iterator[tuple[int, int]] | None:
    """Where ``audit_parts`` cuts the file: (byte offset, line number) of each part's start,
    the last (None, None) when the part before it may be long (no place to cut found near:
    a long session); None when there is no second part."""
    size = os.environ.get("BOORAY_AUDIT_PART", "")
    size = int(size) if size.isdigit() and int(size) > 0 else PART
    stream = notation.opened(path)
    starts = notation.session_starts(stream, size, r.printable(path))
    head = [next(starts), next(starts, (None, None))]
    if head[1][0] is None:  # no place to cut, or only past a long first part
        stream.close()
        return None

    def all_starts():
        with stream:
            yield from head
            yield from starts
    return all_starts()


class _Part:
    """The bytes of a file from its position up to ``end`` (a line's start), read by lines
    (the bytes left are counted here: asking the file where it is costs a system call)."""

    def __init__(self, stream, end: int | None):
        self.stream = stream
        self.left = None if end is None else end - stream.tell()

    def readline(self, most: int = -1) -> bytes:
        left = self.left
        if left is None:
            return self.stream.readline(most)
        if left <= 0:
            return b""
        line = self.stream.readline(left if most < 0 else min(most, left))
        self.left = left - len(line)
        return line


def _audit_part(job) -> tuple[list, int]:
    """A part's items, rendered, and the sessions it began."""
    path, begin, end, line, override, cinch_nodes, render = job
    reader = notation.Reader(r.printable(path))
    try:
        with open(path, "rb") as f:
            f.seek(begin)
            items = render(audit(reader.read(_Part(f, end), first_line=line), override, cinch_nodes))
    except OSError as e:
        raise notation.ReadError(f"{path}: cannot read: {e.strerror or e}") from None
    return items, reader.sessions


def _as_is(items) -> list:
    return list(items)


def _counted_on(item, before: int):
    """The item with its session index counted on by the sessions of the parts before."""
    if not before:
        return item
    if isinstance(item, SessionStart):
        return SessionStart(replace(item.session, index=item.session.index + before), item.rules, item.problems)
    if isinstance(item, SessionEnd):
        return replace(item, index=item.index + before)
    if isinstance(item, HandReport):
        return replace(item, session=item.session + before)
    return item


def audit_parts(path: str, starts: Iterator[tuple[int, int]], jobs: int, override: Rules | None,
                cinch_nodes: int = NODES, render: Callable | None = None) -> Iterator:
    """Items as ``audit(notation.read(path))`` yields them, passed through ``render`` (a
    module's function of a list of items, giving the list to pass on: it runs in the
    workers, on each part's items), each part of the file (``parts``) read and audited by
    one of ``jobs`` processes."""
    render = render or _as_is
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with ctx.Pool(jobs, initializer=_quiet_on_broken_pipe) as pool:
        pending: deque = deque()
        before = 0  # the sessions begun in the parts passed on

        def passed_on() -> Iterator:
            nonlocal before
            items, sessions = pending.popleft().get()
            for item in items:
                yield _counted_on(item, before)
            before += sessions

        begin, line = next(starts)
        long = False  # the last part is long: its hands are replayed as one long session's
        for end, next_line in starts:
            if end is None:
                long = True
                break
            pending.append(pool.apply_async(_audit_part, ((path, begin, end, line, override, cinch_nodes, render),)))
            begin, line = end, next_line
            while len(pending) > jobs * AHEAD or pending and pending[0].ready():
                yield from passed_on()
        if not long:
            pending.append(pool.apply_async(_audit_part, ((path, begin, None, line, override, cinch_nodes, render),)))
        while pending:
            yield from passed_on()
    if long:
        for item in audit_parallel(path, jobs, override, cinch_nodes, begin=begin, first_line=line):
            yield from render([_counted_on(item, before)])
