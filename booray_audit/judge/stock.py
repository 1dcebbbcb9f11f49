"""The deal, the draw and the stock (docs/rules.md, the deal and the draw; the cinch): what each
player was dealt, threw and drew, which discards a reshuffle can have brought back, and which
a player knows are out of play."""

from __future__ import annotations

import functools

from .. import record as r
from ..cards import FULL_DECK, UNKNOWN, card_str, mask_of, suit_mask
from .seating import _rotated


class Stock:
    """Mixed into ``knowledge.Knowledge``: deals, draws, discards and reshuffles."""

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

    def _reshuffles(self, events) -> None:
        """docs/rules.md, the deal and the draw and the cinch: which discards a reshuffle can have brought back.

        Every card the record shows leaving the stock counts: the deals of every seated
        player (without `Seats`, of every player named in the hand) and every draw, as
        cards or as a count.  The draws are replayed in order from the dealer's left
        when the order and every count are known; a discard is forgotten (unseen again)
        only if the stock can have run out at a later player's draw.  Under
        `reshuffle=folded-first` the hands of the players who passed refill the stock
        first, the discards only once those run out too; only the passers sure to have
        folded before a draw count then (those who declared before it, or everyone under
        simultaneous declarations or with a draw round), so a discard is forgotten
        wherever it can have come back.  ``folded_back``: the players whose draw can have
        come after the stock ran out (who may draw a folded card under `folded-first`)."""
        dealt_in = len(self.seats) if self.seats else len({name for name, _ in r.naming(events)})
        stock = 52 - dealt_in * self.rules.cards - (self.rules.trump_card == "stock")  # the card turned
        most = self.rules.discard_limit(max(dealt_in, 1), None)  # the most any seat may
        counts = {p: self.draw_count.get(p) for p in self.active}
        self.reshuffle_possible = sum(most if n is None else n for n in counts.values()) > stock
        self.forgotten: set[str] = set()
        self.folded_back: set[str] = set()
        self.discards_back = self.reshuffle_possible  # a discard can have come back into the stock
        if not self.reshuffle_possible:
            return
        folded_first = self.rules.reshuffle != "discards" and bool(self.passed)
        together = self.rules.reshuffle == "together"  # the passed hands and the discards at once
        order = self._draw_order()
        if order is None or any(n is None for n in counts.values()):
            self.forgotten = set(self.active) - ({order[-1]} if order else set())
            self.folded_back = set(self.active) if folded_first else set()
            return
        ready = self._folded_before(order, events) if folded_first else [0] * len(order)
        pile, last, used, reach = 0, -1, 0, None
        for i, p in enumerate(order):
            n = counts[p]
            if n > stock:
                reach = i if reach is None else reach
                folded = ready[i] * self.rules.cards - used  # the folded hands not yet shuffled in
                used += folded
                if n <= stock + folded and not together:
                    stock += folded - n
                else:  # the others' discards make a new stock
                    stock, pile, last = stock + folded + pile - n, 0, i
            else:
                stock -= n
            pile += n
        self.forgotten = set(order[:last]) if last >= 0 else set()
        self.discards_back = last >= 0
        if folded_first and reach is not None:
            self.folded_back = set(order[reach:])

    def _folded_before(self, order: list[str], events) -> list[int]:
        """For each drawing player in ``order``, how many players the record shows had
        passed before that draw: every passer when all declare before anyone draws
        (simultaneous declarations, or a `draw` line), else those seated between the
        dealer's left and the drawing player; none where the seats do not say."""
        if self.rules.declarations == "simultaneous" or any(
                type(e) is r.Decision and e.action == "draw" for e in events):
            return [len(self.passed)] * len(order)
        if not (self.seats and self.dealer in self.seats):
            return [0] * len(order)
        i = self.seats.index(self.dealer)
        turn = self.seats[i + 1:] + self.seats[:i + 1]
        passed = set(self.passed)
        return [sum(q in passed for q in turn[:turn.index(p)]) if p in turn else 0 for p in order]

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
        """P's discards the record shows or implies (docs/rules.md, the cinch): written as cards, or a
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


def _count(cards) -> int | None:
    if cards is None:
        return None
    return cards if isinstance(cards, int) else len(cards)
