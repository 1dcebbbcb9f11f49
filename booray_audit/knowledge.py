"""What the record proves about each player's cards during a hand (RULES.md §4, §5).

A card was in P's hand at a trick if the record deals or draws it to P and P
had not yet played or discarded it, or if P plays it at a later trick.  This
module also decides the facts the cinch judgement rests on: the order of play,
whether a reshuffle of the discards can have happened after a discard, where
the up-card is, and which ranks of suit-only cards (`?h`) the record pins down.
Where the record contradicts itself (consistency.py), those players are not judged.
"""

from __future__ import annotations

import collections
import functools
from dataclasses import replace

from . import consistency, record as r
from .cards import FULL_DECK, UNKNOWN, UNRANKED, above, card_str, mask_of, suit_mask, suits_mask
from .engine import beats, winning
from .readings import may_win
from .rules import Rules


class Knowledge:
    """Built once per hand by the replay.  ``tricks`` are the record's tricks with every
    suit-only card whose rank the record pins down replaced by that card."""

    def __init__(self, rules: Rules, events, trump, active, dealer, seats, left_out: bool = False,
                 unled: frozenset[int] | set[int] = frozenset()):
        self.rules, self.trump, self.active = rules, trump, list(active)
        self.dealer, self.seats = dealer, list(seats)
        self._from_leader: dict[str, list[str] | None] = {}  # order_from, per leader
        deals = {e.player: e for e in events if isinstance(e, r.Deal)}
        decisions = [e for e in events if isinstance(e, r.Decision)]
        self.recorded = [e for e in events if isinstance(e, r.Trick)]
        # the table counted more tricks than the record shows, or settled the hand (a `Net`
        # line) that the record shows fewer whole tricks of than were dealt: one was left out,
        # and an unnumbered trick does not say whether it came before or after it (``left_out``:
        # taken so, see order.out_of_place)
        self.left_out = not all(t.written for t in self.recorded) and (left_out or sum(
            n for e in events if isinstance(e, r.TricksClaim) for _, n in e.counts) > len(self.recorded)
            or len(self.recorded) < rules.cards and any(isinstance(e, r.NetClaim) for e in events)
            and all(len(t.plays) >= len(self.active) for t in self.recorded))
        self.errors: list[tuple[str, str | None, str, str]] = []
        # the tricks (places) whose plays the replay found may be written out of the order
        # they were played in: what a card showed about its player's hand (a void) is not used
        self.doubted: set[int] = set()
        self.post: dict[str, int] = {}
        self.full: dict[str, bool] = {}
        self.drawn: dict[str, int] = {}
        self.discarded: dict[str, int] = {}
        self.discard_known: dict[str, bool] = {}
        self._shown: dict[str, int] = {}  # discards_shown, per player
        self.draw_count: dict[str, int | None] = {}
        self.passed = [d.player for d in decisions if d.action == "pass"]
        self.declared = {d.player for d in decisions}
        self.up = next((e.card for e in events if isinstance(e, r.Up) and e.card & 15), None)
        self.dealt: dict[str, int] = {p: mask_of(c for c in d.cards if c & 15) for p, d in deals.items()}
        self.cycle = self._cycle()
        self.usual = self._usual()  # without `Seats` or one order of play: the order most tricks show
        self.late = _late_declarers(decisions, self.seats, self.dealer)  # who declared out of turn
        # the declarations go round against `Seats`: no trick's written order is the order of play
        # (from a dealer seated, going round backwards always puts someone out of turn)
        self.against_seats = bool(self.seats) and (bool(self.late) or self.dealer not in self.seats) and (
            _against_seats(decisions, self.seats))
        # declarations that contradict the dealer named: out of turn from the dealer's left,
        # or (without `Seats`) the dealer's not last of the first round
        self.out_of_turn = bool(self.late) or _dealer_not_last(decisions, self.seats, self.dealer)
        # whose hand the up-card went to: the dealer's, unless the record contradicts who dealt
        self.up_player = None if dealer is None or self._dealer_contradicted(decisions) else dealer
        self._holdings(deals, decisions)
        self._reshuffles(events)
        # the up-card played by another player than the dealer named: the dealer may be
        # wrong, and who led trick 1 with it (the card may be what is wrong too).  No
        # reshuffle brings it back: the dealer draws last, and a reshuffle leaves out the
        # discards of the player drawing, so none of the dealer's reaches another hand
        self.up_elsewhere = (self.up is not None and self.dealer is not None
                             and any(p != self.dealer and c == self.up for t in self.recorded for p, c in t.plays))
        # seat-order tricks give who played each card after the leader's by `Seats`: where
        # the record contradicts the seats' order, they give only their leaders' cards
        self.seats_doubted = self._seats_contradicted(decisions)
        self.unplaced: set[int] = set()  # ``unled`` (unled_places): read as placing none of their cards
        self._trick_plays()
        self.played_mask = 0
        # cards the record puts in two places (a duplicate-card error): where they were is
        # not known, so they prove nothing about anyone's hand
        self.contested = 0
        self.doubtful: set[tuple[str, int]] = set()  # plays the record contradicts
        consistency.check(self, deals)
        doubted_now = not self.seats_doubted and self._seat_plays_contradicted()
        if doubted_now:
            self.seats_doubted = True
        elif unled and not self.seats_doubted:
            # after the checks of the cards as written: a card played twice is still a
            # duplicate when a seat-order trick no longer says whose one of them was
            self.unplaced = set(unled)  # the first reading's unled_places: the same tricks
        if doubted_now or self.unplaced:  # the tricks read again, as now doubted
            self._trick_plays()
            self.played_mask = mask_of(c for pl in self.plays.values() for _, c in pl if c & 15)
        self.__dict__.pop("suspect", None)  # asked of the tricks as first read: worked out anew
        if self.seats_doubted:
            self.errors.append(("out-of-turn", None, "the record contradicts the order of the seats, so who "
                                "played each card of a seat-order trick after the leader's is not known",
                                "Seats " + " ".join(self.seats)))
        # tricks written with names out of clockwise order: two names may be swapped, so
        # those players' plays there prove nothing about what they held before
        self.scrambled = self._scrambled()
        if self.doubtful:
            self._unshown()
        self.by_trick = {p: dict(pl) for p, pl in self.plays.items()}
        every = list(range(1, rules.cards + 1))
        self.complete = {p: len(pl) == len(every) and [t for t, _ in pl] == every for p, pl in self.plays.items()}
        # per player, the mask of ranked cards played before each trick: index t for
        # trick t (0 and 1 hold nothing), the last index everything played
        self._before: dict[str, list[int]] = {}
        self._held: dict[tuple[str, int], tuple[int, tuple[int, ...], bool]] = {}
        self._whole: dict[tuple[str, int], int | None] = {}
        last = len(self.tricks) + 1
        for p, pl in self.plays.items():
            before, m, i = [0, 0], 0, 0
            for t in range(1, last):
                while i < len(pl) and pl[i][0] <= t:
                    if pl[i][1] & 15:
                        m |= 1 << pl[i][1]
                    i += 1
                before.append(m)
            self._before[p] = before
        self._unsure = self._unsure_suits()

    def _trick_plays(self) -> None:
        self.tricks = self._pinned()
        self.plays: dict[str, list[tuple[int, int]]] = {}
        for t, trick in enumerate(self.tricks, 1):
            for p, c in trick.plays:
                self.plays.setdefault(p, []).append((t, c))

    def _seats_contradicted(self, decisions) -> bool:
        """The record contradicts the clockwise order of `Seats` (or its dealer), on which
        its seat-order tricks rest: a declaration out of turn, trick 1 led by another than
        the first player in on the dealer's left, or a trick written with names out of
        clockwise order."""
        if not any(t.by_seat for t in self.recorded):
            return False
        if self.up_player is None and self.dealer is not None:
            return True  # see _dealer_contradicted
        for trick in self.recorded:
            players = [p for p, _ in trick.plays if p in self.seats]  # an unseated name: reported apart
            if not trick.by_seat and players and not _subsequence(players, _rotated(self.seats, players[0])):
                return True
        return False

    def _seat_plays_contradicted(self) -> bool:
        """A card of a seat-order trick after its leader's that the record contradicts
        (played elsewhere, not held, ...), or a seat-order trick whose cards give it to a
        player who did not lead the next: the seats' order may be the thing wrong."""
        if not any(t.by_seat for t in self.recorded):
            return False
        return any(trick.by_seat and ((p, t) in self.doubtful or c & 15 and self.contested >> c & 1)
                   for t, trick in enumerate(self.tricks, 1) for p, c in trick.plays[1:]) or any(
            self.tricks[t - 1].by_seat for t in self.suspect)

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
        the lead may be the card left out)."""
        out: set[int] = set()
        if trump is None:
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

    # -- holdings ------------------------------------------------------------
    def _holdings(self, deals, decisions):
        dec = {d.player: d for d in decisions if d.action != "pass"}
        for p in dict.fromkeys([*deals, *dec]):  # in the record's order: errors come out in it
            deal = deals.get(p)
            d = dec.get(p)
            dealt = self.dealt.get(p, 0)
            if p == self.up_player and self.up is not None and deal is None:
                dealt |= 1 << self.up
            discards = d.discards if d else None
            draws = d.draws if d else None
            self.draw_count[p] = _count(draws) if draws is not None else _count(discards)
            kept = 0
            if discards == 0 or discards == ():
                kept = dealt
                self.discard_known[p] = True
            elif isinstance(discards, tuple):
                gone = mask_of(c for c in discards if c & 15)
                if deal:  # more discards from outside the cards the deal names than it leaves unnamed
                    missing = gone & ~dealt
                    if missing and missing.bit_count() > self.rules.cards - dealt.bit_count():
                        self.errors.append(("not-held", p, f"{p} discarded cards not dealt to {p}",
                                            f"discarded {card_str(missing.bit_length() - 1)}"))
                kept = dealt & ~gone
                for c in discards:  # a discard the record does not name may be any dealt card
                    if not c & 15:
                        kept &= ~(FULL_DECK if c == UNKNOWN else suit_mask(c >> 4))
                self.discarded[p] = gone
                self.discard_known[p] = all(c & 15 for c in discards)
            got = mask_of(c for c in draws if c & 15) if isinstance(draws, tuple) else 0
            self.drawn[p] = got
            self.post[p] = kept | got
            deal_full = deal is not None and len(deal.cards) == self.rules.cards and all(
                c & 15 for c in deal.cards)
            draws_full = (discards in (0, ()) or (isinstance(discards, tuple) and self.discard_known[p]
                          and isinstance(draws, tuple) and all(c & 15 for c in draws)))
            self.full[p] = deal_full and d is not None and draws_full

    # -- the order of play -----------------------------------------------------
    def _cycle(self) -> list[str] | None:
        """The active players clockwise (RULES.md §4): from `Seats` when given, else from
        the tricks (cards in the order played); None when unknown or the sources disagree."""
        active = set(self.active)
        found: list[str] | None = None
        if self.seats:
            if not active <= set(self.seats):
                return None
            found = [p for p in self.seats if p in active]
        partial = []
        for trick in self.recorded:
            players = [p for p, _ in trick.plays]
            if len(players) == len(active) and set(players) == active:
                if found is None:
                    found = players
                elif _rotated(players, found[0]) != found:
                    return None
            else:
                partial.append(players)
        if found is None:
            return None
        for players in partial:  # incomplete tricks: in the same order, if with gaps
            if players[0] in active and not _subsequence(players, _rotated(found, players[0])):
                return None
        return found

    def _scrambled(self) -> dict[int, set[str]]:
        """Per trick (place) whose names are out of clockwise order (by `Seats`, else by the
        order most full tricks show; every trick when two orders tie), the players whose
        names may be swapped: the two out of place where swapping them mends the order,
        else all of the trick's."""
        if self.cycle is not None or len(self.tricks) < 2:
            return {}  # every trick agrees with the seats (or with each other)
        if self.seats:
            seats = self.seats
        else:
            ranked = self._orders()
            if len(ranked) < 2:
                return {}
            if ranked[0][1] == ranked[1][1]:
                return {t: {p for p, _ in trick.plays} for t, trick in enumerate(self.tricks, 1)}
            seats = list(ranked[0][0])
        out: dict[int, set[str]] = {}
        for t, trick in enumerate(self.tricks, 1):
            players = [p for p, _ in trick.plays if p in seats]
            if not players:
                continue
            order = [p for p in _rotated(seats, players[0]) if p in players]
            if order == players:
                continue
            off = [i for i, (p, q) in enumerate(zip(players, order)) if p != q]
            out[t] = {players[i] for i in off} if len(off) == 2 else {p for p, _ in trick.plays}
        return out

    def _orders(self) -> list[tuple[tuple[str, ...], int]]:
        """The two orders of play the most full tricks show, each with how many show it."""
        return collections.Counter(tuple(_rotated([p for p, _ in t.plays], min(p for p, _ in t.plays)))
                                   for t in self.recorded if {p for p, _ in t.plays} == set(self.active)
                                   and len(t.plays) == len(self.active)).most_common(2)

    @functools.cached_property
    def outvoting(self) -> list[str] | None:
        """With `Seats`: the order of play most full tricks show, where more of them show it
        than show the seats' order (the seats typed in another order: alphabetical, or
        counter-clockwise); a trick that follows the seats then goes against the others.
        None where the seats hold, or the tricks tie."""
        if not self.seats or self.cycle is not None:
            return None
        seated = [p for p in self.seats if p in self.active]
        if len(seated) < 3 or set(seated) != set(self.active):
            return None
        ranked = self._orders()
        mine = tuple(_rotated(seated, min(seated)))
        # the seats' order outside the two most shown: shown no more than the second
        if not ranked or ranked[0][0] == mine or ranked[0][1] <= dict(ranked).get(mine, 0) or (
                len(ranked) > 1 and ranked[1][1] == ranked[0][1]):
            return None
        return list(ranked[0][0])

    def _usual(self) -> list[str] | None:
        """Without `Seats`, where the tricks disagree on the order of play: the order most
        full tricks show (None when two orders tie)."""
        if self.seats or self.cycle is not None:
            return None
        ranked = self._orders()
        return list(ranked[0][0]) if ranked and (len(ranked) < 2 or ranked[0][1] > ranked[1][1]) else None

    def _dealer_contradicted(self, decisions) -> bool:
        """The record contradicts who dealt (the `Dealer` line, or the turn of the deal that
        stands for it, may name the wrong seat): a declaration made out of turn from the
        dealer's left, or trick 1 led by another player than the first active one left of
        the dealer (by `Seats`, or by the order of play the tricks show).  Where the up-card
        went is then not known, nor the order of the draws.  (A trick 1 without a card from
        the player on lead is no contradiction: the lead may be the card left out.)"""
        if self.out_of_turn:
            return True
        first = self.recorded[0] if self.recorded else None
        if first is None or first.number not in (None, 1):
            return False
        leader = self.first_leader()
        # a trick short of the card of the player on lead: the lead may be the card left out
        return leader is not None and first.plays[0][0] != leader and any(p == leader for p, _ in first.plays)

    def order_from(self, leader: str) -> list[str] | None:
        """The clockwise order from ``leader`` by `Seats` (for out-of-turn findings): one
        list per leader, kept (the replay asks at every trick; no caller changes it)."""
        if leader in self._from_leader:
            return self._from_leader[leader]
        order = None
        if self.seats and leader in self.seats:
            i = self.seats.index(leader)
            order = [p for p in self.seats[i:] + self.seats[:i] if p in self.active]
        self._from_leader[leader] = order
        return order

    @functools.cached_property
    def up_holder(self) -> str | None:
        """Without a dealer named (or carried from the hand before): the one player the
        record shows holding the up-card, which only the dealer is dealt (RULES.md §2): the
        player whose deal names it, or who plays it having drawn nothing, or with no
        reshuffle of the discards possible (a discarded up-card comes back only so)."""
        if self.dealer is not None or self.up is None or self.contested >> self.up & 1:
            return None
        holders = {p for p, m in self.dealt.items() if m >> self.up & 1}
        holders |= {p for p, pl in self.plays.items() if any(c == self.up for _, c in pl)
                    and (self.draw_count.get(p) == 0 or not self.reshuffle_possible)}
        return holders.pop() if len(holders) == 1 else None

    def first_leader(self) -> str | None:
        """Who leads trick 1: the first active player left of the dealer, by `Seats`; without
        them, the player after the dealer in the order of play the tricks show (where they
        disagree, the order most show), when the dealer played (a dealer who passed sits
        where the record does not show).  Without a dealer named, the up-card's holder is
        the dealer."""
        dealer = self.dealer if self.dealer is not None else self.up_holder
        if not self.seats:
            order = self.cycle or self.usual
            if order and dealer in order and len(order) > 1:
                return _rotated(order, dealer)[1]
            return None
        if dealer not in self.seats:
            return None
        i = self.seats.index(dealer)
        for p in self.seats[i + 1:] + self.seats[:i + 1]:
            if p in self.active:
                return p
        return None

    def dealer_alone(self) -> bool:
        """Only the `Dealer` line (or the turn of the deal that stands for it) says who dealt:
        some player in the hand has no declaration line (a full round of them puts a dealer
        a seat off out of turn), and neither that dealer's deal nor play shows the up-card."""
        dealer, up = self.dealer, self.up
        if dealer is None or set(self.active) <= self.declared:
            return False
        return up is None or not (self.dealt.get(dealer, 0) >> up & 1
                                  or any(c == up for _, c in self.plays.get(dealer, ())))

    def proven_first_leader(self) -> str | None:
        """Who led trick 1 by the dealer, unless the declarations or the up-card contradict
        that dealer (a seat off, say): then only trick 1's own line says, and None."""
        return None if self.out_of_turn or self.up_elsewhere else self.first_leader()

    def lead_reason(self, t: int, expected: str) -> str:
        if t == 1 and self.dealer is None:
            return (f"{self.up_holder} holds the up-card {card_str(self.up)}, so dealt; the first "
                    f"active player on the dealer's left leads: {expected}")
        if t == 1:
            return f"the first active player left of the dealer ({self.dealer}) leads: {expected}"
        return f"{expected} won trick {self.numbered(t - 1)}"

    # -- the stock -------------------------------------------------------------
    def _reshuffles(self, events) -> None:
        """RULES.md §2, §4: which discards a reshuffle can have brought back.

        Every card the record shows leaving the stock counts: the deals of every seated
        player (without `Seats`, of every player named in the hand) and every draw, as
        cards or as a count.  The draws are replayed in order from the dealer's left
        when the order and every count are known; a discard is forgotten (unseen again)
        only if the stock can have run out at a later player's draw."""
        dealt_in = len(self.seats) if self.seats else len({name for name, _ in r.naming(events)})
        stock = 52 - dealt_in * self.rules.cards
        most = self.rules.discard_limit(max(dealt_in, 1))
        counts = {p: self.draw_count.get(p) for p in self.active}
        self.reshuffle_possible = sum(most if n is None else n for n in counts.values()) > stock
        self.forgotten: set[str] = set()
        if not self.reshuffle_possible:
            return
        order = self._draw_order()
        if order is None or any(n is None for n in counts.values()):
            self.forgotten = set(self.active) - ({order[-1]} if order else set())
            return
        pile, last = 0, -1
        for i, p in enumerate(order):
            n = counts[p]
            if n > stock:
                stock, pile, last = stock + pile - n, 0, i  # the others' discards make a new stock
            else:
                stock -= n
            pile += n
        self.forgotten = set(order[:last])  # last >= 0: the stock ran out at some draw

    def _draw_order(self) -> list[str] | None:
        """Active players in the order they drew: from the dealer's left, the dealer last."""
        if self.dealer is not None and self.up_player is None:
            return None  # the record contradicts who dealt
        if self.seats and self.dealer in self.seats and self.cycle is not None:
            i = self.seats.index(self.dealer)
            return [p for p in self.seats[i + 1:] + self.seats[:i + 1] if p in self.active]
        if self.cycle is not None and self.recorded and self.recorded[0].plays[0][0] in self.cycle:
            return _rotated(self.cycle, self.recorded[0].plays[0][0])  # trick 1's leader drew first
        return None

    def out_of_play(self, p: str) -> int:
        """P's own discards that P knows are out of play (no reshuffle can have come after)."""
        if p in self.forgotten:
            return 0
        return self.discards_shown(p)

    def discards_shown(self, p: str) -> int:
        """P's discards the record shows or implies (RULES.md §4): written as cards, or a
        card dealt to P (the up-card included) that P does not hold after the draw, where
        that hand is known, whatever the draw line says (a count, ``??``)."""
        got = self._shown.get(p)
        if got is None:
            got = self.discarded.get(p, 0)
            after = self.whole_hand(p, 1) if self.draw_count.get(p) != 0 else None
            if after is not None:
                got |= self._dealt_to(p) & ~after & ~self._played_by_anyone
            got = self._shown[p] = got & ~self.contested
        return got

    def open_discards(self, p: str) -> tuple[int, int]:
        """How many of P's discards that P knows out of play the record neither shows nor
        implies, and the cards they may be (none known elsewhere in the hand): a lead such
        a card would make as high as the top trump cannot be shown to break the cinch."""
        if p in self.forgotten:
            return 0, 0
        count = self.draw_count.get(p)
        shown = self.discards_shown(p)
        left = (self.rules.cards if count is None else count) - shown.bit_count()
        if left <= 0:
            return 0, 0
        elsewhere = self._played_by_anyone | shown | self.contested
        for q in self.dealt.keys() | self.drawn.keys():
            if q != p:
                elsewhere |= self.dealt.get(q, 0) | self.drawn.get(q, 0)
        if self.up is not None and self.up_player is not None and p != self.up_player:
            elsewhere |= 1 << self.up
        after = self.whole_hand(p, 1)
        elsewhere |= after if after is not None else self.played_before(p, len(self.tricks) + 1)
        dealt = self._dealt_to(p)
        may = FULL_DECK & ~elsewhere
        if dealt.bit_count() >= self.rules.cards:  # the whole deal is known: every discard is of it
            may &= dealt
        return left, may

    def _dealt_to(self, p: str) -> int:
        """The cards the record shows dealt to P, the up-card to the dealer included."""
        dealt = self.dealt.get(p, 0)
        return dealt | 1 << self.up if p == self.up_player and self.up is not None else dealt

    @functools.cached_property
    def _played_by_anyone(self) -> int:
        return mask_of(c for pl in self.plays.values() for _, c in pl if c & 15)

    # -- suit-only cards -------------------------------------------------------
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

    # -- what a player held ---------------------------------------------------
    def played_before(self, p: str, t: int) -> int:
        before = self._before.get(p)
        if not before:
            return 0
        return before[t] if 0 <= t < len(before) else before[0 if t < 0 else -1]

    def held_besides(self, p: str, t: int) -> tuple[int, tuple[int, ...], bool]:
        """P's cards at trick t other than the one played there: (known mask, suits of
        cards known only by suit, whether that is the whole hand).  Kept per (P, t): the
        checks and the cinch's positions ask for it again and again."""
        key = (p, t)
        got = self._held.get(key)
        if got is None:
            got = self._held[key] = self._held_besides(p, t)
        return got

    def _held_besides(self, p: str, t: int) -> tuple[int, tuple[int, ...], bool]:
        own = self.by_trick.get(p, {}).get(t)
        own_bit = (1 << own) if own is not None and own & 15 else 0
        base = self.post.get(p, 0) & ~self.played_before(p, t) & ~own_bit
        unsure = self.unsure_before(p, t) if self._unsure else 0
        if self.full.get(p) and not unsure and not base & self.contested:
            return base, (), True
        later = [c if k not in self.suspect and p not in self.scrambled.get(k, ()) else UNKNOWN
                 for k, c in self.plays.get(p, []) if k > t]
        shown = mask_of(c for c in later if c & 15)
        if unsure:  # cards that may have gone unseen: held only if played later
            base &= ~suits_mask(unsure) | shown
        suits = tuple(c >> 4 for c in later if not c & 15 and c != UNKNOWN)
        complete = self.complete.get(p, False) and UNKNOWN not in later
        mask = base | shown
        if mask & self.contested:
            mask &= ~self.contested
            complete = False
        return mask, suits, complete

    def proven_held(self, p: str, t: int) -> tuple[int, tuple[int, ...]]:
        """Cards the record proves P held when playing to trick t (besides the card played
        there), the up-card included while the dealer is known to keep it; and the suits
        of later suit-only cards."""
        held, suits, _ = self.held_besides(p, t)
        if p == self.up_player and self.keeps_up(t) and self.by_trick.get(p, {}).get(t) != self.up:
            held |= 1 << self.up
        return held, suits

    def keeps_up(self, t: int) -> bool:
        """The dealer is known to hold the up-card before trick t: it drew no cards (so it
        did not discard it) and has not played it yet (RULES.md §4: everyone saw it)."""
        dealer = self.up_player
        if self.up is None or dealer is None or self.draw_count.get(dealer) != 0:
            return False
        if self.unsure_before(dealer, t) >> (self.up >> 4) & 1:
            return False  # the dealer may have played it unseen
        return not any(c == self.up for k, c in self.plays.get(dealer, []) if k < t)

    def whole_hand(self, p: str, t: int) -> int | None:
        """P's whole hand just before playing to trick t, when every card is known."""
        key = (p, t)
        if key in self._whole:
            return self._whole[key]
        hand = None
        if self.full.get(p) and not (self._unsure and self.unsure_before(p, t)):
            hand = self.post[p] & ~self.played_before(p, t)
        elif self.complete.get(p) and not any(k >= t for k in self.suspect) and not any(
                k >= t and p in ps for k, ps in self.scrambled.items()):
            rest = [c for k, c in self.plays[p] if k >= t]
            if all(c & 15 for c in rest):
                hand = mask_of(rest)
        if hand is not None and hand & self.contested:
            hand = None
        self._whole[key] = hand
        return hand

    def source(self, p: str, t: int, card: int | None, suit: int) -> str:
        """How the record shows P held ``card`` (or some card of ``suit``) at trick t."""
        if card is not None and card & 15:
            if self.unsure_before(p, t) >> (card >> 4) & 1:  # the deal alone proves nothing
                later = next((k for k, c in self.plays.get(p, []) if k > t and c == card), None)
                if later is not None:
                    return f"{p} played it at trick {self.numbered(later)}"
            if self.drawn.get(p, 0) >> card & 1:
                return f"{p} drew it"
            if self.post.get(p, 0) >> card & 1:
                return f"{p} was dealt it"
            for k, c in self.plays.get(p, []):
                if k > t and c == card:
                    return f"{p} played it at trick {self.numbered(k)}"
        for k, c in self.plays.get(p, []):
            if k > t and c >> 4 == suit:
                return f"{p} played the {card_str(c)} at trick {self.numbered(k)}"
        return "the record"

    def winner(self, t: int, cards: list[int], trump) -> int | None:
        """Index of the winning card, or None when unknown cards might change it."""
        if trump is None or not cards or cards[0] == UNKNOWN:
            return None
        led = cards[0] >> 4
        if UNRANKED.isdisjoint(cards):  # every rank known (the replay asks this of every trick)
            return winning(cards, trump)
        best = None
        for i, c in enumerate(cards):
            if c & 15 and (best is None and c >> 4 in (led, trump)
                           or best is not None and beats(c, cards[best], trump)):
                best = i
        if best is None:  # the one card of the led suit or trump is of a rank not written: it wins
            unranked = [i for i, c in enumerate(cards) if not c & 15]
            if len(unranked) == 1 and cards[unranked[0]] >> 4 in (led, trump):
                return unranked[0]
            return None
        unseen = FULL_DECK & ~self.played_mask
        beaten = None  # the card of a rank not written that beats the best known whatever its rank
        for i, c in enumerate(cards):
            if c & 15:
                continue
            pool = unseen if c == UNKNOWN else unseen & suit_mask(c >> 4)
            top_trump = pool & suit_mask(trump)
            top_led = pool & suit_mask(led)
            if not (top_trump and beats(top_trump.bit_length() - 1, cards[best], trump)
                    or top_led and beats(top_led.bit_length() - 1, cards[best], trump)):
                continue  # no rank it may be beats the best known
            if beaten is not None or c == UNKNOWN or not beats((pool & -pool).bit_length() - 1, cards[best], trump):
                return None
            beaten = i
        return best if beaten is None else beaten

    def equivalent(self, p: str, t: int, card: int, top: int, prior: list[int]) -> bool | None:
        """RULES.md §4: no card still in play outside P's hand lies between ``card`` and
        ``top``; played cards and P's discards known out of play never separate (what no
        opponent can hold is for the play checks to add: ``plays.PlayChecks._as_high``).
        None when a card between may have been played where the record does not show it."""
        if card == top:
            return True
        if card >> 4 != top >> 4 or (card & 15) > (top & 15):
            return False
        if not self.separating(p, t, card, top, prior):
            return True
        unseen = 0  # suits of the cards played before trick t that the record hides
        for q in self._unsure:
            unseen |= self.unsure_before(q, t)
        return None if unseen >> (card >> 4) & 1 else False

    def separating(self, p: str, t: int, card: int, top: int, prior: list[int]) -> int:
        """The cards between ``card`` and ``top`` (of one suit) that P does not know are
        out of play: not in P's hand, not played, not P's discards known out of play."""
        gone = (self.whole_hand(p, t) or 0) | mask_of(prior) | self.out_of_play(p)
        for trick in self.tricks[:t - 1]:
            gone |= mask_of(c for _, c in trick.plays if c & 15)
        between = above(card) & ~above(top) & ~(1 << top)
        return between & ~gone


def _late_declarers(decisions, seats: list[str], dealer: str | None) -> list[str]:
    """The players the record shows declaring out of turn: declarations go round from the
    dealer's left (known only with `Seats`), the second round of draws aside."""
    if not seats or dealer not in seats:
        return []
    i = seats.index(dealer)
    pos = {p: k for k, p in enumerate(seats[i + 1:] + seats[:i + 1])}
    late, last = [], -1
    for d in decisions:
        k = pos.get(d.player) if d.action != "draw" else None
        if k is None:
            continue  # a name not seated: an unknown-player record error
        if k < last:
            late.append(d.player)
        else:
            last = k
    return late


def _against_seats(decisions, seats: list[str]) -> bool:
    """The declarations go round the table the other way from `Seats` (the seats typed
    counter-clockwise, say): three or more players, in the seats' order read backwards
    and not forwards.  Which way play went round is then not known."""
    order = [p for p in dict.fromkeys(d.player for d in decisions if d.action != "draw") if p in seats]
    if len(order) < 3:
        return False
    back = seats[::-1]
    return _subsequence(order, _rotated(back, order[0])) and not _subsequence(order, _rotated(seats, order[0]))


def _dealer_not_last(decisions, seats: list[str], dealer: str | None) -> bool:
    """Without `Seats`: the dealer named declares before another player's first declaration
    (declarations go round from the dealer's left, the dealer's last)."""
    if seats or dealer is None:
        return False
    first = [d.player for d in decisions if d.action != "draw"]
    return dealer in first and any(p != dealer for p in first[first.index(dealer) + 1:])


def _loosened(trick: r.Trick, leader_too: bool = False) -> r.Trick:
    """A seat-order trick with a card left out: only the leader's card is known to be
    whose it is; the others prove nothing about who held what (``??`` to the checks).
    ``leader_too``: nor the leader's, where the leader written is what is in doubt."""
    plays = tuple((p, UNKNOWN) for p, _ in trick.plays) if leader_too else (
        trick.plays[:1] + tuple((p, UNKNOWN) for p, _ in trick.plays[1:]))
    return replace(trick, plays=plays, seat_cards=(), loose=False)


def _count(cards) -> int | None:
    if cards is None:
        return None
    return cards if isinstance(cards, int) else len(cards)


def _rotated(order: list[str], first: str) -> list[str]:
    i = order.index(first)
    return order[i:] + order[:i]


def _subsequence(part: list[str], whole: list[str]) -> bool:
    it = iter(whole)
    return all(p in it for p in part)
