"""What the record proves about a hand, built once per hand by the replay: one class made of
four, each answering one question (docs/rules.md, the cinch; docs/writing-hands.md, what a
gap in the record hides):

- ``seating.Seating``: who sat where and dealt, and the order of play;
- ``stock.Stock``: what was dealt, thrown and drawn, and what a reshuffle brought back;
- ``doubts.Doubts``: the tricks as the record gives them, and what in them is in doubt;
- ``holdings.Holdings``: who held what when, a trick's winner, cards as high as the top.

Where the record contradicts itself (``consistency``), those players are not judged.
"""

from __future__ import annotations

from . import consistency
from .. import record as r
from ..cards import mask_of
from ..rules.profiles import Rules
from .doubts import Doubts
from .holdings import Holdings
from .seating import Seating, _against_seats, _dealer_not_last, _late_declarers
from .stock import Stock


class Knowledge(Seating, Stock, Doubts, Holdings):
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
        # a trump card turned from the stock (trump-card=stock) is in nobody's hand: only its
        # suit counts (it goes to the discards, and may come back in a reshuffle)
        self.up = None if rules.trump_card == "stock" else next(
            (e.card for e in events if isinstance(e, r.Up) and e.card & 15), None)
        self.dealt: dict[str, int] = {p: mask_of(c for c in d.cards if c & 15) for p, d in deals.items()}
        self.cycle = self._cycle()
        self.usual = self._usual()  # without `Seats` or one order of play: the order most tricks show
        # declared at once (declarations=simultaneous), the order of the lines is no fact
        in_turn = [] if rules.declarations == "simultaneous" else decisions
        self.late = _late_declarers(in_turn, self.seats, self.dealer)  # who declared out of turn
        # the declarations go round against `Seats`: no trick's written order is the order of play
        # (from a dealer seated, going round backwards always puts someone out of turn)
        self.against_seats = bool(self.seats) and (bool(self.late) or self.dealer not in self.seats) and (
            _against_seats(in_turn, self.seats))
        # declarations that contradict the dealer named: out of turn from the dealer's left,
        # or (without `Seats`) the dealer's not last of the first round
        self.out_of_turn = bool(self.late) or _dealer_not_last(in_turn, self.seats, self.dealer)
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
