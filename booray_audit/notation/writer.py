"""The canonical form of a record (docs/writing-hands.md, the tidy form): the parser reads it back equal."""

from __future__ import annotations

import re
from typing import Iterable, Iterator

from .. import record as r
from ..cards import SUIT_LETTERS, card_str, cards_text

KEYWORDS = {"hand", "seats", "dealer", "ante", "deal", "up", "trump", "trick", "tricks", "pot",
            "net", "dispute", "pass", "play", "draw", "all", "none", "recall", "forfeits"}
_PLAIN_NAME = re.compile(r"[^\W\d_][\w\-.']*\Z")


def name(player: str) -> str:
    """A player's name, quoted when it has spaces or is a keyword."""
    if _PLAIN_NAME.match(player) and player.lower() not in KEYWORDS:
        return player
    return '"' + player.replace("\\", "\\\\").replace('"', '\\"') + '"'


def tag_line(key: str, value: str) -> str:
    return f'[{key} "' + value.replace("\\", "\\\\").replace('"', '\\"') + '"]'


def _cards(value: r.Cards) -> str:
    return str(value) if isinstance(value, int) else cards_text(value)


def event_line(e: r.Event) -> str:
    if isinstance(e, r.TagChange):
        text = tag_line(e.name, e.value)
    elif isinstance(e, r.Seats):
        text = "Seats " + " ".join(name(p) for p in e.players)
    elif isinstance(e, r.Dealer):
        text = f"Dealer {name(e.player)}"
    elif isinstance(e, r.Ante):
        text = "Ante " + (e.players if isinstance(e.players, str) else " ".join(map(name, e.players)))
    elif isinstance(e, r.PotClaim):
        text = f"Pot {e.amount}"
    elif isinstance(e, r.Deal):
        text = f"Deal {name(e.player)} {cards_text(e.cards)}"
    elif isinstance(e, r.Up):
        text = f"Up {card_str(e.card)}"
    elif isinstance(e, r.Trump):
        text = f"Trump {SUIT_LETTERS[e.suit]}"
    elif isinstance(e, r.Decision):
        text = f"{name(e.player)} {e.action}"
        if e.discards not in (None, 0) or (e.discards == 0 and e.action == "draw"):
            text += " " + _cards(e.discards)
        if e.draws is not None:
            text += " -> " + _cards(e.draws)
    elif isinstance(e, r.Trick):
        text = f"Trick {e.number}: " + ", ".join(f"{name(p)} {card_str(c)}" for p, c in e.plays)
    elif isinstance(e, r.TricksClaim):
        text = "Tricks " + " ".join(f"{name(p)} {n}" for p, n in e.counts)
    elif isinstance(e, r.NetClaim):
        text = "Net " + " ".join(f"{name(p)} {n:+d}" if n else f"{name(p)} 0" for p, n in e.amounts)
    elif isinstance(e, r.Dispute):
        text = f"Dispute {name(e.player)} {e.kind}" + (f" {e.trick}" if e.trick is not None else "")
    elif isinstance(e, r.Recall):
        text = f"Recall {name(e.player)} {card_str(e.card)}" + (f" {e.trick}" if e.trick is not None else "")
    elif isinstance(e, r.Forfeit):
        text = f"{name(e.player)} forfeits deal"
    else:  # pragma: no cover - every event type is listed above
        raise TypeError(f"unknown event {e!r}")
    if e.note:
        # a tag line takes no annotation: it goes on the next line, which keeps it with the tag
        text += ("\n{ " if isinstance(e, r.TagChange) else " { ") + e.note + " }"
    return text


def hand_lines(hand: r.Hand) -> Iterator[str]:
    """The hand's canonical lines (the store's hand ids hash them)."""
    for _, text in _hand_lines(hand):
        yield text


def _hand_lines(hand: r.Hand) -> Iterator[tuple[int, str]]:
    head = f"Hand {hand.number}"
    if hand.notes:
        head += " { " + " ".join(hand.notes) + " }"
    yield hand.line, head
    for e in hand.events:
        yield e.line, event_line(e)


def _session_lines(session: r.Session) -> Iterator[tuple[object, str]]:
    """(where it came from, line): a file line, ("tag", block line, name) or None."""
    for key, value in session.tags:
        yield ("tag", session.line, key.lower()), tag_line(key, value)
    for hand in session.hands:
        yield None, ""
        yield from _hand_lines(hand)


def write(sessions: Iterable[r.Session], comments: "Comments | None" = None) -> str:
    """The canonical text; with the ``comments`` of the text the sessions were read from,
    each comment where it was (its own line before the line that followed it; at the end
    of its line, at its column when the line leaves room)."""
    lines: list[tuple[object, str]] = []
    for i, s in enumerate(sessions):
        if i:
            lines.append((None, ""))
        lines.extend(_session_lines(s))
    if comments is not None:
        return "\n".join(comments.placed(lines)) + "\n"
    return "\n".join(text for _, text in lines) + "\n"


_TAG_NAME = re.compile(r"\s*\[\s*([A-Za-z][A-Za-z0-9_\-]*)")


def _comment_start(line: str) -> int | None:
    """Where a `#` comment starts on a line: outside quotes and { annotations }."""
    quote = brace = escape = False
    for i, ch in enumerate(line):
        if quote:
            if escape:
                escape = False
            elif ch == "\\":
                escape = True
            elif ch == '"':
                quote = False
        elif brace:
            brace = ch != "}"
        elif ch == '"':
            quote = True
        elif ch == "{":
            brace = True
        elif ch == "#":
            return i
    return None


class Comments:
    """The `#` comments of a text, by line, for ``write`` to keep."""

    def __init__(self, text: str):
        self.own: list[tuple[int, str]] = []          # comment lines
        self.trailing: dict[int, tuple[int, str]] = {}  # line -> (column, comment) after an event
        self.tags: list[tuple[int, str]] = []         # tag lines: (line, name)
        # lines end at \n only, as the reader counts them (not at U+2028 or U+0085 in a tag)
        for n, line in enumerate(text.lstrip("\ufeff").split("\n"), 1):
            at = _comment_start(line)
            if at is not None:
                comment = line[at:].rstrip()
                if line[:at].strip():
                    self.trailing[n] = (at, comment)
                else:
                    self.own.append((n, comment))
            m = _TAG_NAME.match(line)
            if m and (at is None or m.start(1) < at):
                self.tags.append((n, m.group(1).lower()))

    def _tag_line(self, start: int, name: str, used: set) -> int | None:
        for n, key in self.tags:
            if n >= start and key == name and n not in used:
                used.add(n)
                return n
        return None

    def placed(self, lines: list[tuple[object, str]]) -> Iterator[str]:
        used: set[int] = set()
        sourced = []
        for where, text in lines:
            if isinstance(where, tuple):
                where = self._tag_line(where[1], where[2], used)
            sourced.append((where, text))
        shown = {w for w, _ in sourced if w is not None}
        own = sorted(self.own + [(n, c) for n, (_, c) in self.trailing.items() if n not in shown])
        k = 0
        for where, text in sourced:
            if where is not None:
                while k < len(own) and own[k][0] < where:
                    yield own[k][1]
                    k += 1
                if where in self.trailing:
                    column, comment = self.trailing.pop(where)
                    first, nl, rest = text.partition("\n")
                    text = first + " " * max(1, column - len(first)) + comment + nl + rest
            yield text
        for _, comment in own[k:]:
            yield comment
