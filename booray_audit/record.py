"""The record: immutable data classes for what a BHH file says (docs/writing-hands.md, events).

Lines are kept for error reports but are not part of a record's value, so a
record read back from its canonical form compares equal to the original.
Cards are ints (see ``cards``); a list of discards or draws is a tuple of
cards or, when only the number is known, an int.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

Cards = Union[tuple[int, ...], int, None]

# Known tags in the order of docs/writing-hands.md, sessions and tags; a session keeps its tags in this
# order, then the unknown ones in the order they were written.
TAG_ORDER = ("Event", "Site", "Table", "Source", "Date", "Rules", "Rule", "Ante", "Limit",
             "Cards", "Seats", "Pot")


def ordered_tags(tags) -> tuple[tuple[str, str], ...]:
    tags = list(tags)
    known = {t.lower(): i for i, t in enumerate(TAG_ORDER)}
    first = sorted((t for t in tags if t[0].lower() in known), key=lambda t: known[t[0].lower()])
    return tuple(first + [t for t in tags if t[0].lower() not in known])


CHIPS = 10**38 - 1  # the most chips an amount may reach: exact in the store (HUGEINT) and in Parquet (DECIMAL(38,0))

@dataclass(frozen=True, slots=True)
class Event:
    line: int = field(default=0, compare=False, kw_only=True)
    note: str | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class TagChange(Event):
    """A tag line (inside a hand it changes that setting from this hand on)."""
    name: str
    value: str
    column: int = field(default=0, compare=False, kw_only=True)  # where the value starts


@dataclass(frozen=True, slots=True)
class Seats(Event):
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Dealer(Event):
    player: str


@dataclass(frozen=True, slots=True)
class Ante(Event):
    """Who put in the ante: a tuple of names, or "all" / "none"."""
    players: tuple[str, ...] | str


@dataclass(frozen=True, slots=True)
class PotClaim(Event):
    amount: int


@dataclass(frozen=True, slots=True)
class Deal(Event):
    player: str
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Up(Event):
    card: int


@dataclass(frozen=True, slots=True)
class Trump(Event):
    suit: int


@dataclass(frozen=True, slots=True)
class Decision(Event):
    """``NAME pass`` / ``NAME play [DISCARDS] [-> DRAWS]`` / ``NAME draw ...``."""
    player: str
    action: str
    discards: Cards = None
    draws: Cards = None


@dataclass(frozen=True, slots=True)
class Trick(Event):
    """One trick, leader first. ``number`` is the one written, if any."""
    number: int | None
    plays: tuple[tuple[str, int], ...]
    # A seat-order trick whose players could not be resolved keeps its cards here.
    seat_cards: tuple[int, ...] = ()
    # A seat-order trick short of cards: a card may have been left out anywhere, so who
    # played which card after the leader's is not known (the cards go clockwise as written).
    loose: bool = False
    # True for a seat-order trick: who played each card after the leader's comes from `Seats`
    by_seat: bool = field(default=False, compare=False)
    # False when the record gives no number and the reader gave it the one after the trick
    # before (the canonical form numbers every trick, so a round trip does not compare it)
    written: bool = field(default=True, compare=False)


@dataclass(frozen=True, slots=True)
class TricksClaim(Event):
    counts: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class NetClaim(Event):
    amounts: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Dispute(Event):
    player: str
    kind: str
    trick: int | None = None


@dataclass(frozen=True, slots=True)
class Recall(Event):
    """``Recall NAME CARD [TRICK]``: NAME played CARD, took it back before the next player
    played, and the card the trick line shows stood instead (docs/rules.md, recalls).
    ``trick`` is the number written, if any; else the next trick line is meant."""
    player: str
    card: int
    trick: int | None = None


@dataclass(frozen=True, slots=True)
class Forfeit(Event):
    """``NAME forfeits deal``: the table ruled that NAME loses the next turn to deal."""
    player: str


@dataclass(frozen=True, slots=True)
class Hand:
    number: int
    events: tuple[Event, ...]
    notes: tuple[str, ...] = ()  # annotations before the first event
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Session:
    """A block of tags and the hands under it. ``hands`` is empty when streamed."""
    tags: tuple[tuple[str, str], ...]
    hands: tuple[Hand, ...] = ()
    index: int = field(default=0, compare=False)
    line: int = field(default=0, compare=False)
    path: str = field(default="", compare=False)  # the file it was read from

    def tag(self, name: str, default: str | None = None) -> str | None:
        for k, v in self.tags:
            if k.lower() == name.lower():
                return v
        return default


@dataclass(frozen=True, slots=True)
class SyntaxProblem:
    """A syntax error: where it is and what was expected, in card-player words."""
    path: str
    line: int
    column: int
    message: str
    text: str = ""
    hand: int | None = field(default=None, compare=False)  # the hand it kept from being read

    def __str__(self) -> str:
        head = shown(f"{self.path}:{self.line}:{self.column}: {_clip(self.message, 300)}")
        if not self.text:
            return head
        # a long line is shown as a window around the column
        start = max(0, min(self.column - 40, len(self.text) - 80))
        window = self.text[start:start + 80].replace("\r", "␍")  # one column, as the caret counts it
        # a control character is shown as one: the caret stays under the column
        window = "".join(ch if ch == "\t" or ch.isprintable() else "�" for ch in window)
        lead = "…" if start else ""
        tail = "…" if start + 80 < len(self.text) else ""
        return f"{head}\n    {lead}{window}{tail}\n    {' ' * (self.column - 1 - start + len(lead))}^"


_UNSHOWN = None


def shown(text: str) -> str:
    """``text`` as it may reach a terminal: control characters (ESC, BEL, ... but tab and
    line end), line separators and the invisible direction overrides escaped as
    ``\\x1b`` or ``\\u202e``, so a record's names and tags can neither recolour the
    terminal, set its title, nor reorder what it shows."""
    global _UNSHOWN
    if _UNSHOWN is None:
        import re
        _UNSHOWN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
    if text.isprintable() or not _UNSHOWN.search(text):
        return text
    return _UNSHOWN.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 256 else f"\\u{ord(m.group()):04x}",
                        text)


def _clip(text: str, most: int) -> str:
    return text if len(text) <= most else text[:most - 1] + "…"


def printable(path: str) -> str:
    """A file name as it can be shown and stored: bytes that are not UTF-8 (which Python
    keeps as lone surrogates) become U+FFFD."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def unended(text: str) -> str:
    """A line without its line end, `\n` or `\r\n` (the grammar's only ones): any other
    carriage return stays, for the grammar to report where it is."""
    if text.endswith("\n"):
        return text[:-2] if text.endswith("\r\n") else text[:-1]
    return text


def naming(events):
    """(name, line) for every player an event of the hand names (disputes aside)."""
    for e in events:
        if isinstance(e, (Dealer, Deal, Decision, Recall, Forfeit)):
            yield e.player, e.line
        elif isinstance(e, Trick):
            for p, _ in e.plays:
                yield p, e.line
        elif isinstance(e, TricksClaim):
            for p, _ in e.counts:
                yield p, e.line
        elif isinstance(e, NetClaim):
            for p, _ in e.amounts:
                yield p, e.line
        elif isinstance(e, Ante) and isinstance(e.players, tuple):
            for p in e.players:
                yield p, e.line


def closest(word: str, choices) -> list[str]:
    """The choices a typo most likely meant: the same letters in another case first, else
    the nearest spellings (a name, a kind of dispute)."""
    import difflib
    same = [c for c in choices if c.lower() == word.lower()]
    return same or difflib.get_close_matches(word, list(choices), n=2, cutoff=0.6)


def split_names(text: str) -> tuple[str, ...]:
    """Names in a `Seats` tag value: space-separated, quoted when they hold spaces."""
    import re
    return tuple(a.replace('\\"', '"') or b for a, b in re.findall(r'"((?:[^"\\]|\\.)*)"|(\S+)', text))
