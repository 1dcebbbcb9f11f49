"""`--jobs N`: audit a file in parallel processes, results in file order.

Two ways.  ``audit_parts``: the file is cut where sessions start cleanly
(``notation.reader.session_starts``, about ``PART`` bytes apart, the last ones
smaller); each part is read, audited and settled by a worker on its own (sessions
are independent; ``_Crew``), and its items, made small by the caller's ``render``
(the JSON of its hands), come back to the parent, which passes them on in file
order with the session indexes counted on.
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
AHEAD = 4   # tasks in flight per worker (``audit_parallel``'s batches)
PARTS_AHEAD = 2  # parts in flight per worker (``audit_parts``): one at work, one waiting
PART = 256 * 1024  # bytes of the file per part (``audit_parts``); BOORAY_AUDIT_PART sets it
SHARES = 4  # near the end, a part is at most the bytes left / (SHARES * jobs)


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


def _context():
    """The processes' start method: fork where there is one (the workers inherit the modules
    loaded), else spawn."""
    return multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")


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

    ctx = _context()
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


def parts(path: str, jobs: int = 2) -> Iterator[tuple[int, int]] | None:
    """Where ``audit_parts`` cuts the file: (byte offset, line number) of each part's start,
    the last (None, None) when the part before it may be long (no place to cut found near:
    a long session); None when there is no second part.  The last parts are smaller (a
    ``SHARES``-th of what is left for each of ``jobs``), so that no worker is left alone
    with a long one at the end."""
    size = os.environ.get("BOORAY_AUDIT_PART", "")
    size = int(size) if size.isdigit() and int(size) > 0 else PART
    stream = notation.opened(path)
    starts = notation.session_starts(stream, size, r.printable(path), shares=SHARES * jobs)
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


class _Crew:
    """``jobs`` worker processes for ``audit_parts``, each fed its parts through a pipe of its
    own, and the parent waiting on the pipes itself: no threads in the parent, where
    ``multiprocessing.Pool``'s three (one of them polling the results' pipe as long as it
    holds bytes) took about half of the parent's CPU while the workers ran.  A worker
    killed (out of memory, say) is said so at once, not waited for."""

    def __init__(self, jobs: int, path: str):
        self.path = path
        ctx = _context()
        fork = ctx.get_start_method() == "fork"
        self.pipes, self.workers, self.load = [], [], []
        try:
            for _ in range(jobs):
                mine, theirs = ctx.Pipe()
                self.pipes.append(mine)
                # a forked worker closes its copies of the parent's ends, so that it sees its
                # own pipe's end when the parent is gone
                worker = ctx.Process(target=_serve, args=(theirs, self.pipes[:] if fork else []), daemon=True)
                try:
                    worker.start()
                finally:
                    theirs.close()
                self.workers.append(worker)
                self.load.append(0)
        except BaseException as e:
            self.stop(at_once=True)
            if isinstance(e, OSError):  # no more processes, or no memory for one
                raise notation.ReadError(f"{path}: cannot start the worker processes: {e.strerror or e}") from None
            raise

    def give(self, index: int, job) -> bool:
        """Hands ``job`` to the least loaded worker, if one has fewer than ``PARTS_AHEAD``
        (few: the parts handed out are the ones no other worker can take over at the end)."""
        w = min(range(len(self.pipes)), key=self.load.__getitem__)
        if self.load[w] >= PARTS_AHEAD:
            return False
        self.pipes[w].send((index, job))
        self.load[w] += 1
        return True

    def busy(self) -> bool:
        return any(self.load)

    def done(self) -> Iterator[tuple[int, tuple]]:
        """The parts finished, as soon as one is: (index, result); a worker's exception
        raised here; a worker gone (killed: out of memory, say) said so."""
        from multiprocessing.connection import wait
        for pipe in wait([p for p, n in zip(self.pipes, self.load) if n]):
            w = self.pipes.index(pipe)
            try:
                index, ok, result = pipe.recv()
            except (EOFError, OSError):
                self.workers[w].join(5)
                code = self.workers[w].exitcode
                why = f"killed by signal {-code}" if code and code < 0 else f"exit code {code}"
                raise notation.ReadError(f"{self.path}: a worker process auditing it stopped ({why})") from None
            self.load[w] -= 1
            if not ok:
                raise result
            yield index, result

    def stop(self, at_once: bool) -> None:
        """The workers told to end, or killed ``at_once`` (the run stopped short)."""
        for pipe in self.pipes:
            try:
                if not at_once:
                    pipe.send(None)
            except OSError:
                pass
            pipe.close()
        for worker in self.workers:
            if at_once:
                worker.terminate()
            worker.join()


def _serve(pipe, parents: list) -> None:
    """A worker of ``_Crew``: parts audited as they come, until told to end (None) or its
    parent is gone.  Ctrl-C is the parent's to handle (it ends the workers)."""
    _quiet_on_broken_pipe()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for end in parents:
        end.close()
    while True:
        try:
            task = pipe.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        index, job = task
        try:
            out = (index, True, _audit_part(job))
        except Exception as e:  # noqa: BLE001 - raised in the parent, as Pool did
            out = (index, False, e)
        try:
            pipe.send(out)
        except Exception as e:  # noqa: BLE001 - an exception that does not pickle
            pipe.send((index, False, RuntimeError(f"{type(e).__name__}: {e}")))


def audit_parts(path: str, starts: Iterator[tuple[int, int]], jobs: int, override: Rules | None,
                cinch_nodes: int = NODES, render: Callable | None = None) -> Iterator:
    """Items as ``audit(notation.read(path))`` yields them, passed through ``render`` (a
    module's function of a list of items, giving the list to pass on: it runs in the
    workers, on each part's items), each part of the file (``parts``) read and audited by
    one of ``jobs`` processes, at most ``PARTS_AHEAD`` parts ahead each."""
    render = render or _as_is
    crew = _Crew(jobs, path)
    finished = False
    try:
        results: dict[int, tuple] = {}  # parts done, not yet passed on (those after one not done)
        given = passed = before = 0  # parts handed out, parts passed on, the sessions they began
        begin, line = next(starts)
        cut = next(starts, None)  # where the part from ``begin`` ends; None: at the end of the file
        long = False  # from ``begin`` on, a long session: its hands replayed in batches (below)
        while True:
            while begin is not None and not long:  # parts handed out while a worker has room
                if cut == (None, None):
                    long = True
                    break
                end, next_line = cut or (None, None)
                if not crew.give(given, (path, begin, end, line, override, cinch_nodes, render)):
                    break
                given += 1
                begin, line = end, next_line
                cut = next(starts, None) if end is not None else None
            while passed in results:
                items, sessions = results.pop(passed)
                for item in items:
                    yield _counted_on(item, before)
                before += sessions
                passed += 1
            if not crew.busy():
                break
            for index, result in crew.done():
                results[index] = result
        finished = True
    finally:
        crew.stop(at_once=not finished)
    if long:
        for item in audit_parallel(path, jobs, override, cinch_nodes, begin=begin, first_line=line):
            yield from render([_counted_on(item, before)])
