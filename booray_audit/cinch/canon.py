"""Positions that are the same up to the ranks nobody can tell apart: the memo's keys, and
the adversary's distinct choices of unseen cards."""

from __future__ import annotations

from ..cards import cards_of, suit_mask
from .position import HOLD, LOW


def _packing(live: int) -> tuple[int, list]:
    """Moves (from bit, to bit) that bring each suit's ``live`` cards up to its top ranks,
    their order kept, and the mask of the bits that move."""
    moves = []
    src = 0
    for suit in range(4):
        m = live & suit_mask(suit)
        n = m.bit_count()
        if m == ((1 << n) - 1) << (suit * 16 + 15 - n):
            continue  # already at the top
        d = suit * 16 + 14
        while m:
            c = m.bit_length() - 1
            m ^= 1 << c
            if c != d:
                moves.append((c, d))
                src |= 1 << c
            d -= 1
    return src, moves


def _moved(x: int, src: int, moves) -> int:
    if not x & src:
        return x
    y = x & ~src
    for c, d in moves:
        if x >> c & 1:
            y |= 1 << d
    return y


def _moved_constraint(f: int, src: int, moves) -> int:
    if f >> HOLD:
        return _moved(f & LOW, src, moves) | _moved(f >> HOLD, src, moves) << HOLD
    return _moved(f, src, moves)


def _canon(hand: int, unseen: int, forb: tuple, keep=()) -> tuple:
    """The same position with each suit's live cards (P's, the unseen and the cards
    ``keep`` of the trick) moved up to its top ranks, their order kept; returns hand,
    unseen, forb and the kept cards moved.  Played cards no longer matter, and every
    rule compares only live cards, so the two positions are the same game; positions
    that differ only in which of such cards fell meet in the memo."""
    src, moves = _packing(hand | unseen | _mask(keep))
    if not moves:
        return hand, unseen, forb, tuple(keep)
    return (_moved(hand, src, moves), _moved(unseen, src, moves), tuple(_moved_constraint(f, src, moves) for f in forb),
            tuple(_moved(1 << c, src, moves).bit_length() - 1 for c in keep))


def _distinct(options: int, unseen: int) -> list[int]:
    """P's options, highest first, one per group of cards that no unseen card separates
    (playing any card of such a group is the same)."""
    out: list[int] = []
    prev = -1
    for c in reversed(cards_of(options)):
        if prev >= 0 and c >> 4 == prev >> 4 and not unseen & ((1 << prev) - (2 << c)):
            continue  # equivalent to the card kept above it
        out.append(c)
        prev = c
    return out


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _choices(pool: int, fixed: int, unseen: int, forb, counts, seat) -> list[int]:
    """The adversary's cards worth trying for ``seat``.  Unplayed cards of a suit that no
    card of ``fixed`` (P's hand, the trick) separates, and that every opponent may or
    may not hold alike, form a run; playing any card of a run inside it is the same as
    playing its lowest or its highest, so only those two are tried."""
    others = [forb[j] & pool for j in range(len(counts)) if j != seat and counts[j] > 0 and forb[j] & pool]
    breakers = (fixed | unseen) & ~pool
    held = forb[seat] >> HOLD  # a card the seat is known to hold is a run of its own
    out: list[int] = []
    lo = prev = -1
    prev_sig = 0
    m = pool
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        sig = held >> c & 1
        for f in others:
            sig = (sig << 1) | (f >> c & 1)
        if lo >= 0 and c >> 4 == prev >> 4 and sig == prev_sig and not breakers & (low - (2 << prev)):
            prev = c
            continue
        if lo >= 0:
            out.append(lo)
            if prev != lo:
                out.append(prev)
        lo = prev = c
        prev_sig = sig
    if lo >= 0:
        out.append(lo)
        if prev != lo:
            out.append(prev)
    return out
