"""A fast reader for the plain, common subset of BHH: an accelerator, not a definition.

The Lark grammar (grammar/booray.lark) defines BHH.  Most logs are written in a narrow
subset of it: ASCII event lines, unquoted names, no annotations, tags with plain values.
``items(body)`` reads a hand's (or a tag block's) lines of that subset straight into the
records the grammar's parse builds, and returns None for a chunk with anything else in it
(a quoted name, an annotation, a tag value with a backslash, `#`, `{` or `}`, a name that
could be read as a keyword or a card, a number too long, any doubt): that chunk then goes
to Lark, which also gives every error message.  The tests check that every
hand this reader accepts gives exactly the records Lark gives, on every shipped file and
on randomly mutated lines.

``read`` is the reader the tool uses: ``items`` compiled (``_strict.c``) where it was
built, else ``items`` itself; tests/test_strict_compiled.py holds the two to the same
answer on every file and mutation the tests hold ``items`` to Lark with.
"""

from __future__ import annotations

import os
import re

from .. import record as r
from ..cards import parse_card, parse_suit

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_\-.']*\Z")
_INT = re.compile(r"[0-9]{1,9}\Z")
_SIGNED = re.compile(r"[+-]?[0-9]{1,30}\Z")
_KIND = re.compile(r"[a-zA-Z][a-zA-Z\-]*\Z")
_KEYWORDS = {"hand", "seats", "dealer", "ante", "pot", "deal", "up", "trump", "trick", "tricks", "net",
             "dispute", "pass", "play", "draw", "all", "none", "recall", "forfeits"}
_PLAIN = re.compile(r"[ -!$-z|~\t\r\n]*\Z")  # printable ASCII but for " # { }
# a tag line: its value printable ASCII but for " # \ { }
_TAG = re.compile(r'[ \t]*\[[ \t]*([A-Za-z][A-Za-z0-9_\-]*)[ \t]*"([ !$-\[\]-z|~]*)"[ \t]*\][ \t]*\r?\n?\Z')
INT32 = 2**31 - 1


class _Decline(Exception):
    """This hand is not in the plain subset: Lark reads it."""


def items(body) -> list | None:
    """The reader's items for one hand's (line, text) pairs, as the grammar's parse makes
    them; None when the hand is not in the plain subset."""
    out = []
    try:
        for n, text in body:
            if not isinstance(text, str):
                return None
            if "\r" in text and "\r" in r.unended(text):
                return None  # a carriage return but in a \r\n line end: Lark reads (and reports) it
            tag = _TAG.match(text) if "[" in text else None
            if tag:  # the column is the value's, after its opening quote
                out.append(r.TagChange(tag.group(1), tag.group(2), line=n, column=tag.start(2) + 1))
                continue
            hash_at = text.find("#")
            if hash_at >= 0:
                text = text[:hash_at]
            if not _PLAIN.match(text):
                return None
            # `,` and `:` are tokens of their own (a word glued to `->` reads as no name or
            # card, so Lark takes that hand)
            toks = text.replace(",", " , ").replace(":", " : ").split()
            if not toks:
                continue
            out.append(_line(toks, n))
    except _Decline:
        return None
    return out


_NAMES: set[str] = set()   # tokens already read as names (a log repeats its players')
# every spelling of a card the grammar takes: ranks 2-10, A K Q J T (either case) or ?, then
# a suit letter (either case); and ??
_CARDS: dict[str, int] = {tok: parse_card(tok) for tok in
                          [r + s for r in [*"23456789AKQJTakqjt?", "10"] for s in "shdcSHDC"] + ["??"]}


def _name(tok: str) -> str:
    if tok in _NAMES:
        return tok
    if not _NAME.match(tok) or tok.lower() in _KEYWORDS or tok in _CARDS:
        raise _Decline
    if len(_NAMES) >= 100_000:  # a log of many players: start afresh, memory stays bounded
        _NAMES.clear()
    _NAMES.add(tok)
    return tok


def _card(tok: str) -> int:
    try:
        return _CARDS[tok]
    except KeyError:
        raise _Decline from None


def _int(tok: str, most: int = INT32) -> int:
    if not _INT.match(tok) or int(tok) > most:
        raise _Decline
    return int(tok)


def _pairs(toks: list[str], value) -> tuple:
    """NAME value (","? NAME value)*"""
    n = len(toks)
    if n % 3 == 2 and toks[2::3].count(",") == n // 3:  # the usual form: pairs between commas
        return tuple(zip(map(_name, toks[0::3]), map(value, toks[1::3])))
    out, i = [], 0
    while i < len(toks):
        if out and toks[i] == ",":
            i += 1
        if i + 1 >= len(toks):
            raise _Decline
        out.append((_name(toks[i]), value(toks[i + 1])))
        i += 2
    if not out:
        raise _Decline
    return tuple(out)


def _signed(tok: str) -> int:
    if not _SIGNED.match(tok):
        raise _Decline
    return int(tok)


def _line(toks: list[str], n: int):
    head = toks[0].lower()
    rest = toks[1:]
    if head == "hand":
        if len(rest) > 1:
            raise _Decline
        return ("hand", _int(rest[0]) if rest else None, n)
    if head == "seats" and rest:
        return r.Seats(tuple(_name(t) for t in rest), line=n)
    if head == "dealer" and len(rest) == 1:
        return r.Dealer(_name(rest[0]), line=n)
    if head == "ante" and rest:
        if len(rest) == 1 and rest[0].lower() in ("all", "none"):
            return r.Ante(rest[0].lower(), line=n)
        return r.Ante(tuple(_name(t) for t in rest), line=n)
    if head == "pot" and len(rest) == 1:
        return r.PotClaim(_int(rest[0], 10**30), line=n)
    if head == "deal" and len(rest) >= 2:
        return r.Deal(_name(rest[0]), tuple(map(_card, rest[1:])), line=n)
    if head == "up" and len(rest) == 1:
        return r.Up(_card(rest[0]), line=n)
    if head == "trump" and len(rest) == 1 and len(rest[0]) == 1 and rest[0] in "shdcSHDC":
        return r.Trump(parse_suit(rest[0]), line=n)
    if head == "trick" and rest:
        return _trick(rest, n)
    if head == "tricks" and rest:
        return r.TricksClaim(_pairs(rest, _int), line=n)
    if head == "net" and rest:
        return r.NetClaim(_pairs(rest, _signed), line=n)
    if head == "dispute" and len(rest) in (2, 3):
        if not _KIND.match(rest[1]) or rest[1].lower() in _KEYWORDS:
            raise _Decline
        return r.Dispute(_name(rest[0]), rest[1].lower(), _int(rest[2]) if len(rest) == 3 else None, line=n)
    if head == "recall" and len(rest) in (2, 3):
        return r.Recall(_name(rest[0]), _card(rest[1]), _int(rest[2]) if len(rest) == 3 else None, line=n)
    if head in _KEYWORDS:
        raise _Decline
    if len(toks) == 3 and toks[1].lower() == "forfeits" and toks[2].lower() == "deal":
        return r.Forfeit(_name(toks[0]), line=n)
    return _decision(toks, n)


def _trick(rest: list[str], n: int) -> r.Trick:
    number = None
    if len(rest) >= 2 and rest[1] == ":" and _INT.match(rest[0]):
        number = _int(rest[0])
        rest = rest[2:]
    if len(rest) >= 3 and rest[1] == ":":  # by seat: NAME ":" CARD (","? CARD)*
        leader = _name(rest[0])
        cards, expect_card = [], True
        for t in rest[2:]:
            if t == "," and not expect_card:
                expect_card = True
                continue
            cards.append(_card(t))
            expect_card = False
        if expect_card:
            raise _Decline
        return r.Trick(number, ((leader, cards[0]),), tuple(cards[1:]), line=n)
    return r.Trick(number, _pairs(rest, _card), line=n)


def _decision(toks: list[str], n: int) -> r.Decision:
    player = _name(toks[0])
    if len(toks) < 2:
        raise _Decline
    action = toks[1].lower()
    rest = toks[2:]
    if action == "pass":
        if rest:
            raise _Decline
        return r.Decision(player, "pass", None, None, line=n)
    if action not in ("play", "draw"):
        raise _Decline
    if "->" in rest:
        at = rest.index("->")
        before, after = rest[:at], rest[at + 1:]
        draws = _cards_or_count(after)
    else:
        before, draws = rest, None
    if before:
        discards = _cards_or_count(before)
    elif action == "play" and "->" not in rest:
        discards = 0
    else:
        raise _Decline  # `draw` needs its discards; `play -> ...` without them is Lark's to judge
    return r.Decision(player, action, discards, draws, line=n)


def _cards_or_count(toks: list[str]):
    if len(toks) == 1 and _INT.match(toks[0]):
        return _int(toks[0])
    if not toks:
        raise _Decline
    return tuple(map(_card, toks))


def _compiled():
    """``_strict.items``, its record classes set, or None where it was not built (or
    BOORAY_AUDIT_PURE asks for the Python code)."""
    if os.environ.get("BOORAY_AUDIT_PURE"):
        return None
    try:
        from . import _strict
    except ImportError:
        return None
    _strict.setup(r.TagChange, r.Seats, r.Dealer, r.Ante, r.PotClaim, r.Deal, r.Up, r.Trump, r.Trick,
                  r.TricksClaim, r.NetClaim, r.Dispute, r.Recall, r.Forfeit, r.Decision, r.Hand)
    return _strict.items


COMPILED = _compiled()
read = COMPILED or items
# reader._chunks over reader._lines, compiled (reader.chunks), and Reader._hand for a hand
# without annotations, a `Seats` tag or a seat-order trick, where the fast reader is
CHUNKS = COMPILED.__self__.Chunks if COMPILED is not None else None
HAND = COMPILED.__self__.hand if COMPILED is not None else None
