"""Who sat where and dealt, and the order of play (docs/rules.md, how a trick must be played;
docs/writing-hands.md, events): from `Seats` when given, else from the tricks; never from the
order the declarations are typed in, and nothing that depends on it where the sources disagree."""

from __future__ import annotations

import collections
import functools

from ..cards import card_str


class Seating:
    """Mixed into ``knowledge.Knowledge``: the order of play, the dealer and the first lead."""

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

    def _cycle(self) -> list[str] | None:
        """The active players clockwise (docs/rules.md, the cinch): from `Seats` when given, else from
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
        record shows holding the up-card, which only the dealer is dealt (docs/rules.md, the deal and the draw): the
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
        if self.rules.lead == "rotate":
            return (f"the lead goes round the table (lead=rotate): {expected} sits next after the leader "
                    f"of trick {self.numbered(t - 1)}")
        return f"{expected} won trick {self.numbered(t - 1)}"


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


def _rotated(order: list[str], first: str) -> list[str]:
    i = order.index(first)
    return order[i:] + order[:i]


def _subsequence(part: list[str], whole: list[str]) -> bool:
    it = iter(whole)
    return all(p in it for p in part)
