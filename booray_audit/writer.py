"""The canonical form of a record (NOTATION.md §6): the parser reads it back equal."""

from __future__ import annotations

import re
from typing import Iterable, Iterator

from . import record as r
from .cards import SUIT_LETTERS, card_str, cards_text

KEYWORDS = {"hand", "seats", "dealer", "ante", "deal", "up", "trump", "trick", "tricks", "pot",
            "net", "dispute", "pass", "play", "draw", "all", "none"}
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
    else:  # pragma: no cover - every event type is listed above
        raise TypeError(f"unknown event {e!r}")
    if e.note:
        # a tag line takes no annotation: it goes on the next line, which keeps it with the tag
        text += ("\n{ " if isinstance(e, r.TagChange) else " { ") + e.note + " }"
    return text


def hand_lines(hand: r.Hand) -> Iterator[str]:
    head = f"Hand {hand.number}"
    if hand.notes:
        head += " { " + " ".join(hand.notes) + " }"
    yield head
    for e in hand.events:
        yield event_line(e)


def session_lines(session: r.Session) -> Iterator[str]:
    for key, value in session.tags:
        yield tag_line(key, value)
    for hand in session.hands:
        yield ""
        yield from hand_lines(hand)


def write(sessions: Iterable[r.Session]) -> str:
    out: list[str] = []
    for i, s in enumerate(sessions):
        if i:
            out.append("")
        out.extend(session_lines(s))
    return "\n".join(out) + "\n"
