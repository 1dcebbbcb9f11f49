"""The counting bounds the exact search tries at every node before searching: the tricks
P surely makes (each trump loses only to a higher one still unseen or in the trick) and
the most it can make."""

from __future__ import annotations

from ..cards import above, cards_of, suit_mask
from ..rules.engine import beats, legal, winning
from .position import _possible, top_trumps


class Bounds:
    """Mixed into ``solver.Solver``."""

    def _lower(self, hand, unseen, counts, forb, trick) -> int:
        """Tricks P wins for sure by simple counting: a lower bound of the search."""
        if not trick:
            return self._lead_lower(hand, unseen, counts, forb)
        trumps = suit_mask(self.trump)
        held = [unseen & ~forb[j] if n else 0 for j, n in enumerate(counts)]
        played = {j for j, _ in trick}
        captors = 0
        if self.me not in played:  # trumps in this trick can capture only P's card in it
            for j, c in trick:
                captors |= (1 << c) & trumps
        for h in held:
            captors |= h & trumps
        sure = top_trumps(hand, captors, self.trump)
        # A card of P that wins this trick whatever the seats still to play hold gives
        # P the trick and the lead with the rest of its hand.
        later = 0
        for j, h in enumerate(held):
            if j not in played:
                later |= h
        cards = [c for _, c in trick]
        w = winning(cards, self.trump)
        best = cards[w]
        if self.me in played:
            mine = [best] if trick[w][0] == self.me else []
            rest = [hand]
        else:
            ok = legal(hand, cards, self.trump, self.rules).cards
            mine = [c for c in cards_of(ok) if beats(c, best, self.trump)]
            rest = [hand & ~(1 << c) for c in mine]
        for c, h in zip(mine, rest):
            beaters = suit_mask(c >> 4) & above(c)
            if c >> 4 != self.trump:
                beaters |= trumps
            if not later & beaters:
                sure = max(sure, 1 + self._lead_lower(h, unseen, counts, forb))
        return sure

    def _captors(self, unseen, counts, forb) -> int:
        """The trumps some opponent may still hold."""
        return _possible(unseen, counts, forb) & suit_mask(self.trump)

    def _lead_lower(self, hand, unseen, counts, forb) -> int:
        """Sure tricks for P on lead by counting, the better of two plans.

        Any order: each of P's trumps loses only to a higher trump, each of which captures
        once (``top_trumps``).  Cash first: P leads its trumps above every trump an
        opponent may hold (each such lead makes every opponent holding a trump play one,
        so at most the highest u - b of the u trumps they may hold are left), then its
        plain cards that no opponent may beat in their suit (bosses): either all win and P
        keeps the lead, or an opponent ruffs one, spending a trump (the lowest, the least
        loss to the adversary), after which only the trump count is sure — or, when that
        ruff spent the last trump an opponent may hold and P keeps one, every trump and
        boss P has left (P wins the next trick by following with a boss or trumping, and
        keeps the lead)."""
        trumps = suit_mask(self.trump)
        anything = _possible(unseen, counts, forb)
        captors = anything & trumps
        sure = top_trumps(hand, captors, self.trump)
        mine = hand & trumps
        bosses = mine & ~((1 << captors.bit_length()) - 1)
        b = bosses.bit_count()
        kept = captors
        for _ in range(min(b, captors.bit_count())):
            kept &= kept - 1  # drop the lowest
        rest = hand & ~bosses
        plain = 0
        for c in cards_of(hand & ~trumps):
            if not anything & suit_mask(c >> 4) & above(c):
                plain += 1
        after = top_trumps(rest, kept, self.trump)
        if plain and kept:
            if kept & (kept - 1) or not rest & trumps:
                ruffed = top_trumps(rest, kept & (kept - 1), self.trump)
            else:  # the ruff spent the last trump: P's trumps and other bosses all win
                ruffed = (rest & trumps).bit_count() + plain - 1
            after = min(plain + after, ruffed)
        elif plain:
            after += plain
        return max(sure, b + after)
