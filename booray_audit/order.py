"""Tricks written out of the order of their numbers.

A record typed from memory may put `Trick 3:` above `Trick 2:`.  Then the record says
two things about the order of play, and only one can be true: the order the lines are
written in, or the order their numbers give.  Whether a card was still in a player's
hand at a trick depends on that order, so the hand is replayed both ways, and the audit
keeps only what both replays prove:

- a play finding stands when both find it (same kind, trick, player and card); one found
  in one order only is undecidable, with the reason;
- a play kept a rule only where both replays show it kept;
- the tricks won stand where both replays allow them (they differ only where a winner is
  known from who led next, or where a lead out of turn leaves one in doubt);
- a record error at a trick (a lead out of turn) stands when both find it; the notes
  that say which trick is out of place, and the record errors of the hand as a whole,
  come from the written order.

The plays, as the report lists them, are in the written order.  An unnumbered trick
line is taken to follow the line above it.
"""

from __future__ import annotations

from dataclasses import replace

from . import record as r
from .replay import Replay, Undecidable


def by_number(hand: r.Hand) -> r.Hand | None:
    """The hand with its tricks in the order of their numbers, or None when that is the
    order they are written in."""
    places = [i for i, e in enumerate(hand.events) if isinstance(e, r.Trick)]
    keys, key = [], 0
    for i in places:
        trick = hand.events[i]
        key = trick.number if trick.written else key
        keys.append(key)
    if all(a <= b for a, b in zip(keys, keys[1:])):
        return None
    order = sorted(range(len(places)), key=keys.__getitem__)
    events = list(hand.events)
    for slot, j in zip(places, order):
        events[slot] = hand.events[places[j]]
    return replace(hand, events=tuple(events))


def agree(written: Replay, numbered: Replay) -> Replay:
    """``written`` cut down to what ``numbered`` (the same hand, its tricks in the order of
    their numbers) also proves; see the module's docstring."""
    def key(x):
        return x.kind, x.trick, x.player, x.card

    ours = {key(f) for f in written.findings if f.cls == "play"}
    theirs = {key(f) for f in numbered.findings if f.cls == "play"}
    open_: dict[tuple, Undecidable] = {}
    for f in [*written.findings, *numbered.findings]:
        if f.cls == "play" and (key(f) not in ours or key(f) not in theirs):
            open_.setdefault(key(f), Undecidable(
                f.kind, f.hand, f.trick, f.player, f.card,
                f"the record writes its tricks out of the order of their numbers, and whether "
                f"{f.player}'s play broke the rule depends on which order is right"))
    for u in [*written.undecidable, *numbered.undecidable]:
        open_.setdefault(key(u), u)
    also = {key(f) for f in numbered.findings}
    written.findings = [f for f in written.findings if key(f) in also or f.cls == "record" and (
        f.trick is None or f.player is None)]
    written.undecidable = list(open_.values())
    written.kept = {at: {kind: why for kind, why in kept.items() if kind in numbered.kept.get(at, ())}
                    for at, kept in written.kept.items()}
    both = [w for w in _readings(written) if w in _readings(numbered)]
    written.tricks, written.ways = (both[0], []) if len(both) == 1 else (None, both)
    written.complete = written.complete and numbered.complete and bool(both)
    return written


def _readings(rep: Replay) -> list[dict[str, int]]:
    """The tricks won in each reading of the hand's tricks in doubt (one, where none is)."""
    return [rep.tricks] if rep.tricks is not None else rep.ways
