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

Unnumbered tricks say their order by where they are written: the events of a hand are
written in the order they happened, so that order is the fact, and the settlement
follows it.  A record typed from memory may still put two of them in each other's
place.  Where two or more players break a rule in one such trick as written, or one
player in two or more of them (one breach alone is what a plain record of a real
violation looks like), the hand is also replayed with two tricks in each other's place;
where such an order breaks fewer rules, without either mark, and with no more leads out
of turn than the written one, every finding it clears stands and its evidence says so
("if tricks 2 and 5 were written in each other's place, this would not hold").  Where
fewer tricks are written than were dealt, and no `Tricks` or `Net` line says whether
the one left out was the last, the record itself leaves open where it was: it is taken
that it may have come before any of them (as where those lines show a trick left out),
and the audit keeps only what both readings prove, as above.
"""

from __future__ import annotations

from dataclasses import replace

from .. import record as r
from .findings import Replay, Undecidable


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


def out_of_place(hand: r.Hand, rep: Replay, replay) -> tuple[Replay, str, bool] | None:
    """Where every trick of the hand is unnumbered and ``rep`` (the written order) shows
    a slip's mark (``_mark``): the replay (``replay``: hand, left_out -> Replay) with a
    trick left out before any (where fewer tricks are written than were dealt), or else
    with two tricks in each other's place (called by the places they are written in);
    the first with fewer breaches, without the mark, and no more record errors; a swap
    also with the same tricks won (where the written order tells them) and no more
    tricks whose lead is in doubt (its leads go round as the written ones do).  With it,
    why the order is in doubt, and whether it is a swap (a note on the findings it
    clears, ``noted``; the other is a reading to ``agree`` with).  None where there is
    no mark or no such order."""
    places = [i for i, e in enumerate(hand.events) if isinstance(e, r.Trick)]
    if len(places) < 2 or any(hand.events[i].written for i in places):
        return None
    mark = _mark(rep)
    know = rep.know
    if mark is None or know is None:
        return None
    breaches = sum(f.cls == "play" for f in rep.findings)
    errors = sum(f.cls == "record" for f in rep.findings)
    if not know.left_out and len(places) < know.rules.cards:
        # fewer tricks than were dealt: the one left out may have come before any
        other = replay(hand, True)
        if (sum(f.cls == "play" for f in other.findings) < breaches and _mark(other) is None
                and sum(f.cls == "record" for f in other.findings) <= errors):
            return other, (f"the tricks are not numbered and fewer are written than were dealt, and with {mark} "
                           "as written, one left out may have come before any of them"), False
    for t in range(1, len(places)):
        for u in range(t + 1, len(places) + 1):
            other = _called_as_written(replay(_swapped(hand, places, t, u), False), t, u)
            if (sum(f.cls == "play" for f in other.findings) < breaches and _mark(other) is None
                    and sum(f.cls == "record" for f in other.findings) <= errors and rep.tricks in (None, other.tricks)
                    and len(other.know.doubted) <= len(know.doubted)):
                return other, f"if tricks {t} and {u} were written in each other's place, this would not hold", True
    return None


def noted(written: Replay, other: Replay, note: str) -> Replay:
    """``written`` with ``note`` added to the evidence of each play finding ``other`` (the
    hand with two unnumbered tricks in each other's place) does not make: the written
    order is the fact, the other only information."""
    theirs = {(f.kind, f.trick, f.player, f.card) for f in other.findings if f.cls == "play"}
    written.findings = [replace(f, evidence=f"{f.evidence}; {note}")
                        if f.cls == "play" and (f.kind, f.trick, f.player, f.card) not in theirs else f
                        for f in written.findings]
    return written


def _mark(rep: Replay) -> str | None:
    """The slip's mark in a replay, said as the reason gives it: a trick two or more
    players break a rule in, or a player who breaks one in two or more tricks.  None
    where there is neither."""
    players: dict[int, set[str]] = {}
    tricks: dict[str, set[int]] = {}
    for f in rep.findings:
        if f.cls == "play" and f.trick is not None:
            players.setdefault(f.trick, set()).add(f.player)
            tricks.setdefault(f.player, set()).add(f.trick)
    t = next((t for t in sorted(players) if len(players[t]) > 1), None)
    if t is not None:
        return f"several players breaking a rule in trick {t}"
    p = next((p for p in tricks if len(tricks[p]) > 1), None)
    if p is not None:
        return f"{p} breaking a rule in tricks {', '.join(map(str, sorted(tricks[p])))}"
    return None


def _swapped(hand: r.Hand, places: list[int], t: int, u: int) -> r.Hand:
    """The hand with the unnumbered trick lines in places t and u (from 1) swapped, each
    place keeping its number."""
    events = list(hand.events)
    a, b = places[t - 1], places[u - 1]
    events[a] = replace(hand.events[b], number=hand.events[a].number)
    events[b] = replace(hand.events[a], number=hand.events[b].number)
    return replace(hand, events=tuple(events))


def _called_as_written(rep: Replay, t: int, u: int) -> Replay:
    """``rep``, a replay with tricks t and u swapped, with each trick called by the place it
    is written in (findings, undecidable checks, the plays shown legal)."""
    def place(n):
        return u if n == t else t if n == u else n

    rep.findings = [replace(f, trick=place(f.trick)) for f in rep.findings]
    rep.undecidable = [replace(x, trick=place(x.trick)) for x in rep.undecidable]
    rep.kept = {(p, place(n)): kept for (p, n), kept in rep.kept.items()}
    return rep


def agree(written: Replay, numbered: Replay, why: str | None = None, on: str = "which order is right",
          tallies: bool = True) -> Replay:
    """``written`` cut down to what ``numbered`` (the same hand, its tricks in the order of
    their numbers, or ``why`` another order they may have gone in) also proves; see the
    module's docstring.  ``on``: what a breach found one way only depends on, as its
    reason says.  ``tallies``: the tricks won, too (else ``written``'s stand)."""
    def key(x):
        return x.kind, x.trick, x.player, x.card

    ours = {key(f) for f in written.findings if f.cls == "play"}
    theirs = {key(f) for f in numbered.findings if f.cls == "play"}
    open_: dict[tuple, Undecidable] = {}
    for f in [*written.findings, *numbered.findings]:
        if f.cls == "play" and (key(f) not in ours or key(f) not in theirs):
            open_.setdefault(key(f), Undecidable(
                f.kind, f.hand, f.trick, f.player, f.card,
                f"{why or 'the record writes its tricks out of the order of their numbers'}, and whether "
                f"{f.player}'s play broke the rule depends on {on}"))
    for u in [*written.undecidable, *numbered.undecidable]:
        open_.setdefault(key(u), u)
    also = {key(f) for f in numbered.findings}
    written.findings = [f for f in written.findings if key(f) in also or f.cls == "record" and (
        f.trick is None or f.player is None)]
    written.undecidable = list(open_.values())
    written.kept = {at: {kind: why for kind, why in kept.items() if kind in numbered.kept.get(at, ())}
                    for at, kept in written.kept.items()}
    if not tallies:
        return written
    both = [w for w in _readings(written) if w in _readings(numbered)]
    written.tricks, written.ways = (both[0], []) if len(both) == 1 else (None, both)
    written.complete = written.complete and numbered.complete and bool(both)
    return written


def _readings(rep: Replay) -> list[dict[str, int]]:
    """The tricks won in each reading of the hand's tricks in doubt (one, where none is)."""
    return [rep.tricks] if rep.tricks is not None else rep.ways
