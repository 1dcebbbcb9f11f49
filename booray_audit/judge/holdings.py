"""Who held what when (docs/writing-hands.md, what a gap in the record hides): a card was in P's
hand at a trick if the record deals or draws it to P and P had not yet played or thrown it, or
if P plays it at a later trick; and from it, a trick's winner where unknown cards leave it open,
and which of P's cards are as high as its top trump (docs/rules.md, the cinch)."""

from __future__ import annotations

from ..cards import FULL_DECK, UNKNOWN, UNRANKED, above, card_str, mask_of, suit_mask, suits_mask
from ..rules.engine import beats, winning


class Holdings:
    """Mixed into ``knowledge.Knowledge``: what each player held, trick by trick."""

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
        did not discard it) and has not played it yet (docs/rules.md, the cinch: everyone saw it)."""
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
                if k >= t and c == card:  # at trick t itself: the card that stood where one was taken back
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
        """docs/rules.md, the cinch: no card still in play outside P's hand lies between ``card`` and
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
