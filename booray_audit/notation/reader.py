"""The BHH reader: grammar → record, one hand at a time (docs/writing-hands.md).

The file is cut into chunks by line (a tag block, or one hand from its `Hand`
line to the next), each chunk is read by the fast reader (strict.py) or, when that
does not take it, parsed with the Lark grammar (syntax.py), and records are
yielded as they are made: memory does not grow with the file.  A syntax error
spoils only its own hand (docs/writing-hands.md, common mistakes); every bad line of that hand is
reported as a ``SyntaxProblem`` and reading goes on.
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import replace
from typing import IO, Iterable, Iterator

from .. import record as r
from . import strict
from ..rules.profiles import RulesError, check_tag

_MAX_DIGITS = 4300  # Python's int() refuses longer decimal strings
_HAND_LINE = re.compile(r"[ \t\ufeff]*hand(?![\w\-.'])", re.IGNORECASE)


class ReadError(Exception):
    """A file that cannot be read at all (missing, a folder, unreadable)."""


# -- chunking and streaming -----------------------------------------------

class Unreadable:
    """A line that cannot be read as text, and why (never kept whole in memory)."""
    __slots__ = ("why",)

    def __init__(self, why: str):
        self.why = why


MAX_LINE = 100_000        # bytes in one line
SMALLEST_PART = 16 * 1024  # bytes: the least part ``session_starts`` shrinks the last ones to
MAX_HAND_LINES = 10_000   # lines of events in one hand or tag block
NOT_UTF8 = Unreadable("this line is not UTF-8 text")
TOO_LONG = Unreadable(f"this line is longer than {MAX_LINE:,} characters")
TOO_MANY = Unreadable(f"more than {MAX_HAND_LINES:,} lines in one hand or tag block: it is not checked")


def _lines(stream: IO[bytes], path: str, first: int = 1) -> Iterator[tuple[int, str | Unreadable]]:
    """(line number, text, or ``Unreadable`` when not UTF-8 or too long), the stream's first
    line numbered ``first``; a leading BOM of the file is dropped.  A line past MAX_LINE is
    read on in pieces and dropped, never held whole."""
    number = first - 1
    while True:
        raw = stream.readline(MAX_LINE + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            while True:
                more = stream.readline(1 << 20)
                if not more or more.endswith(b"\n"):
                    break
            yield number, TOO_LONG
            continue
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        try:
            yield number, raw.decode("utf-8")
        except UnicodeDecodeError:
            yield number, NOT_UTF8


# the first characters of a line that only an event line starts with (``_kind``): a
# letter but h (which may start `Hand`)
_EVENT_STARTS = frozenset("abcdefgijklmnopqrstuvwxyzABCDEFGIJKLMNOPQRSTUVWXYZ")
_EVENT_BYTES = frozenset(c.encode()[0] for c in _EVENT_STARTS)  # the same, as a line's first byte


def _kind(text: str) -> str:
    s = text.lstrip(" \t\ufeff")
    # blank as the grammar's line break reads one: spaces, a comment, then \n or \r\n; a
    # carriage return before anything else is an event line, which Lark reports
    if not s or s[0] == "#" or s == "\n" or s == "\r\n":
        return "blank"
    if s[0] == "[":
        return "tag"
    if _HAND_LINE.match(s):
        return "hand"
    return "event"


def _chunks(lines: Iterable[tuple[int, str | Unreadable]], first: int = 1) -> Iterator[tuple[str, int, list]]:
    """('tags' | 'hand', first line number, [(n, text)...]) in file order, the lines
    starting at line ``first``.  Blank and comment lines are not kept (``_renumber`` gives
    events their own lines), so memory holds one chunk's events, at most MAX_HAND_LINES of
    them (``_Body``)."""
    kind, start, body, pending = "tags", first, _Body(), _Body()
    for n, text in lines:
        # an Unreadable line reads as an event (reported there); most lines start with a letter
        k = "event" if type(text) is not str or text[:1] in _EVENT_STARTS else _kind(text)
        if k == "blank":
            continue
        if k == "tag":
            if kind == "hand":
                pending.append((n, text))
            else:
                body.append((n, text))
        elif k == "hand":
            if body or kind == "hand":
                yield kind, start, body
            if pending:
                yield "tags", pending[0][0], pending
                pending = _Body()
            kind, start, body = "hand", n, _Body([(n, text)])
        else:  # an event: tags met inside a hand belong to it
            if pending:
                body += pending
                pending = _Body()
            if not body:
                start = n
            body.append((n, text))
    if body:
        yield kind, start, body
    if pending:
        yield "tags", pending[0][0], pending


def chunks(stream: IO[bytes], path: str, first: int = 1) -> Iterable[tuple[str, int, list]]:
    """``_chunks(_lines(stream, path, first), first)``: compiled (``_strict.Chunks``) where
    the fast reader is, with the same lines, limits and values (tests/test_strict_compiled.py
    holds the two to the same chunks)."""
    if strict.CHUNKS is not None:
        return strict.CHUNKS(stream.readline, first, _kind, TOO_LONG, NOT_UTF8, TOO_MANY, MAX_LINE, MAX_HAND_LINES)
    return _chunks(_lines(stream, path, first), first)


class _Body(list):
    """A chunk's lines; past MAX_HAND_LINES it keeps only its first, and a line that says
    the chunk is too long (reported there, as any line that cannot be read)."""
    over = False

    def append(self, item) -> None:
        if len(self) < MAX_HAND_LINES:
            list.append(self, item)
        elif not self.over:
            self.over = True
            del self[1:]
            super().append((self[0][0], TOO_MANY))

    def __iadd__(self, items):
        for item in items:
            self.append(item)
        return self


def _joined(body) -> str:
    """The chunk's kept lines as one text, with no gaps: a run of blank lines would cost
    the regular expression engine memory per line; ``_renumber`` gives events their lines."""
    return "".join(text if text.endswith("\n") else text + "\n" for _, text in body)


def _renumber(items: list, body) -> list:
    """Events of a chunk parsed from ``_joined`` text carry its line numbers: give them the
    file's."""
    lines = [n for n, _ in body]
    for it in items:
        if isinstance(it, r.Event):
            object.__setattr__(it, "line", lines[it.line - 1])
    return [(it[0], it[1], lines[it[2] - 1]) if isinstance(it, tuple) else it for it in items]


FAST = True  # read plain hands with strict.py (the tests compare it with Lark's reading)


class Reader:
    """Streams one file: yields ``Session`` heads, ``Hand`` records and ``SyntaxProblem``s.
    ``sessions``: the sessions begun so far (a session whose tags cannot be used counts)."""

    def __init__(self, path: str):
        self.path = path
        self.sessions = 0

    def read(self, stream: IO[bytes], first_line: int = 1) -> Iterator[r.Session | r.Hand | r.SyntaxProblem]:
        """The items of the stream; ``first_line``: the number of its first line, when it
        starts where a session starts cleanly in the file (``session_starts``): its session
        indexes then count from 0 there."""
        if self.path.lower().endswith(".jsonl"):  # BHH-JSON (docs/bhh-json.md)
            from .jsonl import JsonReader
            yield from JsonReader(self.path).read(stream)
            return
        if self.path.lower().endswith(".json"):  # a platform's game logs (docs/platforms.md)
            from .mondaynightpoker import MondayReader
            yield from MondayReader(self.path).read(stream)
            return
        session_index = -1
        last_number = 0
        seats: tuple[str, ...] = ()
        spoiled = False  # a tag the rules cannot use: the session's hands are not checked
        for kind, start, body in chunks(stream, self.path, first_line):
            items, problems = self._parse(start, body)
            if not problems:
                problems = self._bad_tags(items, body, kind)
            if problems:
                if kind == "hand":
                    last_number = self._hand_number(body, last_number)
                    spoiled = spoiled or any(isinstance(e, r.TagChange) for e in items)
                    problems = [replace(p, hand=last_number) for p in problems]
                else:  # tags that cannot be read or used start a session that is not checked
                    session_index += 1
                    self.sessions = session_index + 1
                    spoiled = True
                    if not items:
                        first = problems[0]
                        problems[0] = r.SyntaxProblem(first.path, first.line, first.column,
                                                      f"{first.message}; this session's hands are not checked",
                                                      first.text)
                yield from problems
                continue
            if kind == "tags":
                stray = [e for e in items if isinstance(e, r.Event) and not isinstance(e, r.TagChange)]
                if stray:
                    yield self._problem(stray[0].line, 1, "expected a `Hand` line before this event",
                                        _text_of(body, stray[0].line))
                tags = r.ordered_tags((t.name, t.value) for t in items if isinstance(t, r.TagChange))
                if tags:
                    session_index += 1
                    self.sessions = session_index + 1
                    seats = r.split_names(dict((k.lower(), v) for k, v in tags).get("seats", ""))
                    last_number = 0
                    spoiled = False
                    yield r.Session(tags, index=session_index, line=start, path=self.path)
                continue
            if spoiled:
                continue  # the error at the tag says so
            if session_index < 0:
                session_index = 0
                self.sessions = 1
                yield r.Session((), index=session_index, line=start, path=self.path)
            _, number, line = items[0]
            number = number if number is not None else last_number + 1
            if number > strict.INT32:  # unnumbered, after hand 2,147,483,647
                yield replace(self._problem(line, 1, f"a hand number can be at most {strict.INT32:,}: number "
                                            "this hand and the ones after it", _text_of(body, line)),
                              hand=last_number)
                continue
            if number <= last_number:
                yield replace(self._problem(line, 1, f"hand numbers must increase: hand {number} "
                                            f"comes after hand {last_number}", _text_of(body, line)),
                              hand=last_number)  # the hands after it are not the ones before
                continue
            last_number = number
            hand, seats, problem = self._hand(number, line, items[1:], seats)
            yield replace(problem, hand=number) if problem else hand

    def starts_session(self, start: int, body: list) -> bool:
        """Do these tag lines start a session cleanly: read without error, a tag among them?"""
        items, problems = self._parse(start, body)
        if not problems:
            problems = self._bad_tags(items, body, "tags")
        return not problems and any(isinstance(e, r.TagChange) for e in items)

    def _bad_tags(self, items, body, kind) -> list[r.SyntaxProblem]:
        """A tag that sets the rules with a value they cannot use is an error at its own
        line and column: the session is not checked under other rules than it says."""
        out = []
        tag = r.TagChange
        for e in items:
            if type(e) is tag:  # every event class is Event's own subclass
                try:
                    check_tag(e.name, e.value)
                except RulesError as err:
                    where = "the hands from here on" if kind == "hand" else "this session's hands"
                    out.append(self._problem(e.line, e.column or 1, f"{err}; {where} are not checked",
                                             _text_of(body, e.line)))
        return out

    @staticmethod
    def _hand_number(body, last: int) -> int:
        text = body[0][1]
        m = re.match(r"\s*hand\s+(\d{1,%d})\b" % _MAX_DIGITS, text if isinstance(text, str) else "", re.IGNORECASE)
        if m and int(m.group(1)) > strict.INT32:
            return last  # a number no hand can have: the hands after it go on from the one before
        return int(m.group(1)) if m else last + 1

    def _problem(self, line: int, column: int, message: str, text: str | None) -> r.SyntaxProblem:
        if len(message) > 300:  # a message quoting a huge value
            message = message[:299] + "…"
        text = text if isinstance(text, str) else ""
        return r.SyntaxProblem(self.path, line, column, message, r.unended(text))

    def _parse(self, start: int, body: list) -> tuple[list, list]:
        """Parse a chunk (a plain one without Lark: strict.py); on failure, find every bad
        line of it."""
        if FAST:
            fast = strict.read(body)
            if fast is not None:
                return fast, []
        from . import syntax  # Lark: imported only for a hand the fast reader does not take
        if not any(isinstance(t, Unreadable) for _, t in body):
            try:
                items = syntax.parser().parse(_joined(body))
                return _renumber(items, body), []
            except (syntax.UnexpectedInput, ValueError):  # ValueError: a number too long for int()
                pass
            except syntax.CardError as e:  # cannot happen with the grammar's card pattern
                return [], [self._problem(start, 1, str(e), body[0][1])]
        problems = []
        for n, text in body:
            if isinstance(text, Unreadable):
                problems.append(self._problem(n, 1, text.why, ""))
                continue
            try:
                syntax.parser().parse(text)
            except syntax.UnexpectedInput as e:
                column, message = syntax.explain(e, r.unended(text))
                problems.append(self._problem(n, column, message, text))
            except syntax.TooBig as e:
                problems.append(self._problem(n, e.column, str(e), text))
            except ValueError:
                long = re.search(r"[0-9]{%d,}" % _MAX_DIGITS, text)
                problems.append(self._problem(n, long.start() + 1 if long else 1,
                                              f"a number of more than {_MAX_DIGITS:,} digits is no count "
                                              "of cards, tricks or chips", text))
        if not problems:  # only the combination failed: should not happen with a line grammar
            problems.append(self._problem(start, 1, "this hand could not be read", body[0][1]))
        return [], problems

    def _hand(self, number, line, items, seats):
        """Attach annotations, resolve seat-order tricks; return (hand, seats, problem)."""
        if strict.HAND is not None:  # compiled, for a hand with none of them (strict.py)
            made = strict.HAND(number, line, items, seats)
            if made is not None:
                return made[0], made[1], None
        return self._hand_python(number, line, items, seats)

    def _hand_python(self, number, line, items, seats):
        """``_hand`` in Python: the reference."""
        events: list[r.Event] = []
        notes: list[str] = []
        for it in items:
            if isinstance(it, str):  # an annotation (a Lark token): kept with the event before it
                text = str(it)[1:-1].strip()
                if events:
                    prev = events[-1]
                    joined = f"{prev.note} {text}" if prev.note else text
                    events[-1] = _with_note(prev, joined)
                else:
                    notes.append(text)
                continue
            events.append(it)
            kind = type(it)  # every event class is Event's own subclass
            if kind is r.Seats:
                seats = it.players
            elif kind is r.TagChange and it.name.lower() == "seats":
                seats = r.split_names(it.value)
        active = None  # the active players, worked out for the first seat-order trick
        tricks = 0
        for i, e in enumerate(events):
            if type(e) is not r.Trick:
                continue
            if e.number is None:  # canonical form numbers every trick: the one before + 1
                e = events[i] = r.Trick(tricks + 1, e.plays, e.seat_cards, line=e.line, note=e.note,
                                        written=False)
            tricks = e.number
            if e.seat_cards:
                if active is None:
                    active = _active(events, seats)
                resolved = _resolve(e, seats, active)
                if resolved is None:
                    return None, seats, self._problem(
                        e.line, 1, "cannot tell who played a seat-order trick: "
                        "give the `Seats` and the players' `play` lines, or name each player", "")
                events[i] = resolved
        return r.Hand(number, tuple(events), tuple(notes), line=line), seats, None


def _text_of(body, line):
    for n, t in body:
        if n == line:
            return t
    return ""


def _with_note(event: r.Event, note: str) -> r.Event:
    fields = {f: getattr(event, f) for f in event.__dataclass_fields__}
    fields["note"] = note
    return type(event)(**fields)


def _active(events, seats) -> list[str]:
    """Active players (docs/writing-hands.md, events): play lines, else the first trick, else everyone seated."""
    decided = [e.player for e in events if isinstance(e, r.Decision) and e.action != "pass"]
    if decided:
        return decided
    if any(isinstance(e, r.Decision) for e in events):
        return []
    for e in events:
        if isinstance(e, r.Trick) and not e.seat_cards:
            return [p for p, _ in e.plays]
    return list(seats)


def _resolve(trick: r.Trick, seats, active) -> r.Trick | None:
    """The players of a seat-order trick, clockwise from the leader.  A card short may be
    a card left out anywhere, not the last players' (``loose``)."""
    leader, first = trick.plays[0]
    if leader not in seats:
        return None
    i = seats.index(leader)
    order = [p for p in seats[i + 1:] + seats[:i] if p in active]
    if len(trick.seat_cards) > len(order):
        return None
    plays = ((leader, first),) + tuple(zip(order, trick.seat_cards))
    loose = len(trick.seat_cards) < len(order)
    return r.Trick(trick.number, plays, line=trick.line, note=trick.note, loose=loose, written=trick.written,
                   by_seat=True)


def irregular(path: str) -> bool:
    """An existing path that is neither a regular file nor a folder (nor a link to one): a
    FIFO would block the read, a device (/dev/zero) never end it."""
    import os
    import stat
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False  # missing or unreadable: opening it says why
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def regular(path: str) -> None:
    """Raise ``ReadError`` unless ``path`` is a regular file (or a link to one)."""
    import os
    if os.path.isdir(path):
        raise ReadError(f"{path}: is a folder, not a file")
    if irregular(path):
        raise ReadError(f"{r.printable(path)}: not a regular file (a pipe or a device), not read")


def opened(path: str) -> IO[bytes]:
    """The file open for reading; ``ReadError`` when it cannot be (a folder, a pipe,
    missing or unreadable)."""
    regular(path)
    try:
        return open(path, "rb")
    except IsADirectoryError:
        raise ReadError(f"{path}: is a folder, not a file") from None
    except OSError as e:
        raise ReadError(f"{path}: cannot read: {e.strerror or e}") from None


def session_starts(stream: IO[bytes], size: int, path: str = "", shares: int = 0) -> Iterator[tuple[int, int]]:
    """Places to cut a file into parts that can be read apart, about ``size`` bytes apart
    (with ``shares``, at most the bytes left over ``shares``, SMALLEST_PART at least: the
    last parts smaller, so that workers taking them in turn end near together):
    (byte offset, line number) of lines where a session starts cleanly, the first (0, 1).
    A part read from such a place (``Reader.read(part, first_line=line)``) gives the items the
    whole file gives there, its session indexes counted from 0: the place is the first of
    a run of tag lines (blank lines among them) after a hand's lines and before a `Hand`
    line, whose tags start a session cleanly (read without error, a tag set).  Where
    none is found within four times ``size`` (64 KB at least) past a nominal place,
    the last item is (None, None): the part from the place before may be long."""
    reader = Reader(path)
    total = os.fstat(stream.fileno()).st_size if shares else 0
    yield 0, 1
    pos, line = 0, 1  # a line's start and its number
    while True:
        step = min(size, max(SMALLEST_PART, (total - pos) // shares)) if shares else size
        stream.seek(pos)
        block = stream.read(step)
        if len(block) < step:
            return
        at, line = pos + step, line + block.count(b"\n")
        while not block.endswith(b"\n"):  # inside a line: on to the next one's start
            block = stream.readline(1 << 20)
            if not block:
                return
            at += len(block)
            line += block.endswith(b"\n")
        found = _clean_start(reader, stream, at, line, max(4 * size, 1 << 16))
        if found == "end":
            return
        if found is None:
            yield None, None  # the part from the last place is long (a long session): read it otherwise
            return
        pos, line = found
        yield found


def _clean_start(reader: Reader, stream: IO[bytes], at: int, line: int, reach: int):
    """The first clean session start (``session_starts``) from the line starting at byte
    ``at`` (numbered ``line``), looked for over ``reach`` bytes: (offset, line), None, or
    "end" at the end of the file."""
    stream.seek(at)
    seen_hand = False  # a `Hand` line passed: the tags after the next event start a chunk
    run = None  # the run of tag lines since the last event: (offset, line, [(n, text)]), False when too long
    offset = at
    while offset - at < reach:
        raw = stream.readline(MAX_LINE + 1)
        if not raw:
            return "end"
        length, kind = len(raw), "event"
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):  # too long: read on, an event
            while raw and not raw.endswith(b"\n"):
                raw = stream.readline(1 << 20)
                length += len(raw)
        elif raw[0] in _EVENT_BYTES:  # an event line (most of them): _kind's answer without asking
            pass
        else:
            try:
                text = raw.decode("utf-8")
                kind = _kind(text)
            except UnicodeDecodeError:
                pass
        if kind == "tag" and run is not False:
            run = run or (offset, line, [])
            run[2].append((line, text))
            if len(run[2]) > 200:
                run = False
        elif kind == "hand":
            if run and seen_hand and reader.starts_session(run[1], run[2]):
                return run[0], run[1]
            seen_hand, run = True, None
        elif kind == "event":
            run = None
        offset += length
        line += 1
    return None


def read(source: str | IO[bytes], path: str | None = None) -> Iterator[r.Session | r.Hand | r.SyntaxProblem]:
    """Stream a file (a path, or a binary stream with its display name)."""
    if isinstance(source, str):
        path = r.printable(path or source)
        with opened(source) as stream:
            yield from Reader(path).read(stream)
    else:
        yield from Reader(path or "<stdin>").read(source)


def read_text(text: str, path: str = "<text>") -> tuple[list[r.Session], list[r.SyntaxProblem]]:
    """Read a whole text into sessions with their hands (for small files and tests)."""
    return collect(read(io.BytesIO(text.encode("utf-8")), path))


def collect(items) -> tuple[list[r.Session], list[r.SyntaxProblem]]:
    sessions: list[r.Session] = []
    hands: list[r.Hand] = []
    problems: list[r.SyntaxProblem] = []
    for it in items:
        if isinstance(it, r.Session):
            if sessions:
                sessions[-1] = _with_hands(sessions[-1], hands)
            sessions.append(it)
            hands = []
        elif isinstance(it, r.Hand):
            hands.append(it)
        else:
            problems.append(it)
    if sessions:
        sessions[-1] = _with_hands(sessions[-1], hands)
    return sessions, problems


def _with_hands(s: r.Session, hands) -> r.Session:
    return r.Session(s.tags, tuple(hands), index=s.index, line=s.line, path=s.path)
