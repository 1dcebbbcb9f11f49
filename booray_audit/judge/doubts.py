"""The tricks as the record gives them, and what in them is in doubt (docs/writing-hands.md,
what a gap in the record hides): suit-only cards (`?h`) the record pins down, plays the record
contradicts, tricks whose cards the next lead contradicts, seat-order tricks nothing says who
led, and the suits a player may have played unseen."""

from __future__ import annotations

import collections
import functools
from dataclasses import replace

from .. import record as r
from ..cards import UNKNOWN, UNRANKED, mask_of, suit_mask
from ..rules.engine import winning
from .readings import may_win


class Doubts:
    """Mixed into ``knowledge.Knowledge``: the tricks read, and their doubts."""

    def _trick_plays(self) -> None:
        self.tricks = self._pinned()
        self.plays: dict[str, list[tuple[int, int]]] = {}
        for t, trick in enumerate(self.tricks, 1):
            for p, c in trick.plays:
                self.plays.setdefault(p, []).append((t, c))

    def _unshown(self) -> None:
        """The plays the record contradicts become cards not shown (``??``) for the checks,
        the winners and the cinch: the card written there may be typed wrong (or the deal),
        so it leads no suit, beats nothing and shows nothing about its player's hand."""
        self.tricks = [replace(trick, plays=tuple((p, UNKNOWN) if (p, t) in self.doubtful else (p, c)
                                                  for p, c in trick.plays))
                       if any((p, t) in self.doubtful for p, _ in trick.plays) else trick
                       for t, trick in enumerate(self.tricks, 1)]
        self.plays = {p: [(t, UNKNOWN if (p, t) in self.doubtful else c) for t, c in pl]
                      for p, pl in self.plays.items()}
        self.played_mask = mask_of(c for pl in self.plays.values() for _, c in pl if c & 15)

    @functools.cached_property
    def suspect(self) -> set[int]:
        """The tricks (places) whose cards give the trick to a player who did not lead the
        next (``contradicted``): a card there may be written wrong (or the next trick
        written from the wrong card), so their plays prove nothing about what their
        players held before, and the cinch is not judged after them."""
        return self.contradicted(self.trump)

    def contradicted(self, trump) -> set[int]:
        """The tricks (places) whose cards, with ``trump`` as trump, give the trick to a
        player who did not lead the next (a next trick without that player's card aside:
        the lead may be the card left out).  None where the lead rotates (lead=rotate: a
        trick's winner does not lead the next)."""
        out: set[int] = set()
        if trump is None or self.rules.lead != "winner":
            return out
        players = len(self.active)
        for t, (trick, after) in enumerate(zip(self.tricks, self.tricks[1:]), 1):
            if len(trick.plays) != players or (
                    after.number is not None and trick.number is not None and after.number != trick.number + 1):
                continue
            w = self.winner(t, [c for _, c in trick.plays], trump)
            if w is not None and after.plays[0][0] != trick.plays[w][0] and (
                    len(after.plays) == players or any(p == trick.plays[w][0] for p, _ in after.plays)):
                out.add(t)
        return out

    def _unsure_suits(self) -> dict[str, list[int]]:
        """Per player, index t: the suits (bits 0-3) of cards the player may have played
        before trick t without the record saying which: a `??` or a `?h` no fact pins down,
        a trick the player is missing from while later tricks are recorded, and tricks left
        out (a trick numbered past its place, or any unnumbered trick when the table's
        `Tricks` count more tricks than the record shows: the one left out may have come
        before it).  A card of those suits that the record last
        shows in the player's hand may be gone by trick t; only its later plays prove it
        still held.  Players absent here played every card the record shows."""
        count, active = len(self.tricks), set(self.active)
        by = [dict(trick.plays) for trick in self.tricks]
        # a trick numbered past its place follows one left out; so may any unnumbered trick
        # once the table's count shows a trick left out
        gaps = [trick.number > t if trick.written else self.left_out for t, trick in enumerate(self.tricks, 1)]
        if not any(gaps) and UNRANKED.isdisjoint([c for trick in self.tricks for _, c in trick.plays]) and all(
                active <= plays.keys() for plays in by[:-1]):
            return {}  # every play shown: the usual record
        out: dict[str, list[int]] = {}
        for p in active.union(*by):
            row, u = [0, 0], 0  # row[t]: before trick t
            for t, plays in enumerate(by, 1):
                if gaps[t - 1]:
                    u = row[t] = 15
                c = plays.get(p)
                if c is None:
                    u |= 15 if p in active and t < count else 0
                elif not c & 15:
                    u |= 15 if c == UNKNOWN else 1 << (c >> 4)
                row.append(u)
            if u:
                out[p] = row
        return out

    def numbered(self, t: int) -> int:
        """The number the record writes on the trick in place t (its place when none is
        written): what every finding and play calls that trick, also where the record
        leaves a trick out (the replay counts tricks by place)."""
        if 0 < t <= len(self.tricks):
            number = self.tricks[t - 1].number
            if number is not None:
                return number
        return t

    def unsure_before(self, p: str, t: int) -> int:
        """The suits of P's cards that may have been played unseen before trick t (bits)."""
        row = self._unsure.get(p)
        return row[min(t, len(row) - 1)] if row else 0

    def _pinned(self) -> list[r.Trick]:
        """The tricks with each `?h` whose rank the record pins down replaced by that card:
        the one card of its suit the player can have held that is not placed elsewhere."""
        recorded = [_loosened(t, i in self.unplaced) if t.loose or t.by_seat and (
            self.seats_doubted or i in self.unplaced) else t for i, t in enumerate(self.recorded)]
        self.pinned = False  # some suit-only card is read as the card pinned down
        self.pools: dict[tuple[int, str], int] = {}  # (place from 1, player): what a `?h` not pinned may be
        if not any(not c & 15 and c != UNKNOWN for t in recorded for _, c in t.plays):
            return recorded
        known = mask_of(c for t in recorded for _, c in t.plays if c & 15)
        # a card the record puts with two players pins nothing down
        ranked: dict[str, int] = {}  # per player, the ranked cards played
        for t in recorded:
            for p, c in t.plays:
                if c & 15:
                    ranked[p] = ranked.get(p, 0) | 1 << c
        claims = dict(ranked)
        for held in (self.dealt, self.post, self.discarded):
            for p, m in held.items():
                claims[p] = claims.get(p, 0) | m
        seen = doubtful = 0
        for m in claims.values():
            doubtful |= seen & m
            seen |= m
        # a player who plays a card the record's hand for them does not hold (or discarded):
        # that hand or draw is typed wrong, so it pins down no card, theirs or another's
        wrong = {p for p, m in ranked.items()
                 if m & self.discarded.get(p, 0) or self.full.get(p) and m & ~self.post[p]}
        pins: dict[tuple[int, int], int] = {}
        for i, t in enumerate(recorded):
            for j, (p, c) in enumerate(t.plays):
                if not c & 15 and c != UNKNOWN:
                    elsewhere = known | (self.discarded.get(p, 0) if p not in wrong else 0)
                    for q, m in self.post.items():
                        if q != p and q not in wrong:
                            elsewhere |= m
                    if not self.reshuffle_possible:  # no card of another player's came back
                        for q in set(self.dealt) | set(self.discarded):
                            if q != p and q not in wrong:
                                elsewhere |= self.dealt.get(q, 0) | self.discarded.get(q, 0)
                    pool = suit_mask(c >> 4) & ~(elsewhere & ~doubtful)
                    if self.full.get(p) and p not in wrong:
                        pool &= self.post[p]
                    if pool and not pool & (pool - 1):
                        pins[(i, j)] = pool.bit_length() - 1
                    elif pool:
                        self.pools[(i + 1, p)] = pool
        # one card pinned to two plays of a player: neither is known
        counts = collections.Counter((recorded[i].plays[j][0], c) for (i, j), c in pins.items())
        pins = {k: c for k, c in pins.items() if counts[(recorded[k[0]].plays[k[1]][0], c)] == 1}
        self.pinned = bool(pins)
        out = []
        for i, t in enumerate(recorded):
            plays = tuple((p, pins.get((i, j), c)) for j, (p, c) in enumerate(t.plays))
            out.append(replace(t, plays=plays, seat_cards=(), loose=False) if plays != t.plays else t)
        return out

    def unled_places(self) -> set[int]:
        """The places (from 0) of the seat-order tricks that nothing before them says who
        led: a trick after one left out (numbered past its place, or any when an unnumbered
        one is left out), or after one a card short, whose winner is not known (the card
        left out may have won it), or after one its leader's card there cannot have won
        (the record contradicts the lead), or after another such trick that does not bear
        it out (``_bears_out``).  Who played each card rests on the leader written, which
        there only the trick's own line gives: written backwards or from the wrong player,
        it would put every card in the wrong hand.  (After a trick with a card written
        ``??`` that the leader's may have beaten, who led next says who won it, as the
        rules have it.)"""
        before = None
        unled: set[int] = set()
        for i, t in enumerate(self.recorded):
            if before is None:
                gap = t.number not in (None, 1)
            else:
                gap = None not in (t.number, before.number) and t.number != before.number + 1
            if t.by_seat and (self.left_out or gap or before is not None and (
                    before.loose or len(before.plays) < len(self.active)
                    or i - 1 in unled and not self._bears_out(before, t.plays[0][0])
                    or not may_win(before.plays, t.plays[0][0], self.trump))):
                unled.add(i)
            before = t
        return unled

    def _bears_out(self, trick: r.Trick, leader: str) -> bool:
        """A seat-order trick whose own lead is not borne out still bears out ``leader`` of the
        next where a card after its leader's, every card written, wins it and the seats give
        that card to ``leader``: the seats' order is then seen to hold.  Won by its leader's
        own card, it shows nothing the lead written does not already say."""
        cards = [c for _, c in trick.plays]
        if self.trump is None or not UNRANKED.isdisjoint(cards):
            return False
        w = winning(cards, self.trump)
        return w > 0 and trick.plays[w][0] == leader


def _loosened(trick: r.Trick, leader_too: bool = False) -> r.Trick:
    """A seat-order trick with a card left out: only the leader's card is known to be
    whose it is; the others prove nothing about who held what (``??`` to the checks).
    ``leader_too``: nor the leader's, where the leader written is what is in doubt."""
    plays = tuple((p, UNKNOWN) for p, _ in trick.plays) if leader_too else (
        trick.plays[:1] + tuple((p, UNKNOWN) for p, _ in trick.plays[1:]))
    return replace(trick, plays=plays, seat_cards=(), loose=False)
