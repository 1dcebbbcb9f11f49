"""What the record proves about each player's cards during a hand (RULES.md §5).

A card was in P's hand at a trick if the record deals or draws it to P and P
had not yet played or discarded it, or if P plays it at a later trick.
"""

from __future__ import annotations

from . import record as r
from .cards import FULL_DECK, UNKNOWN, card_str, cards_of, cards_text, mask_of, suit_mask
from .engine import beats
from .rules import Rules


class Knowledge:
    def __init__(self, rules: Rules, trump, active, tricks, deals, decisions, dealer, seats, ev):
        self.rules, self.trump, self.active = rules, trump, list(active)
        self.tricks, self.dealer, self.seats = tricks, dealer, list(seats)
        self.errors: list[tuple[str, str | None, str, str]] = []
        self.plays: dict[str, list[tuple[int, int]]] = {}
        for t, trick in enumerate(tricks, 1):
            for p, c in trick.plays:
                self.plays.setdefault(p, []).append((t, c))
        self.played_mask = 0
        self.post: dict[str, int] = {}
        self.full: dict[str, bool] = {}
        self.drawn: dict[str, int] = {}
        self.discarded: dict[str, int] = {}
        self.discard_known: dict[str, bool] = {}
        up = next((e.card for e in ev if isinstance(e, r.Up)), None)
        self._holdings(deals, decisions, up)
        self._consistency(deals)
        total = sum(len(d.cards) for d in deals.values())
        drawn = sum(d.draws if isinstance(d.draws, int) else len(d.draws or ())
                    for d in decisions if d.action != "pass")
        # RULES.md §2: a stock that ran out reshuffles the discards, so own discards may come back.
        self.reshuffled = len(seats) * rules.cards + drawn > 52 or total + drawn > 52
        self.by_trick = {p: {t: c for t, c in pl} for p, pl in self.plays.items()}
        n = rules.cards
        self.complete = {p: len(pl) == n and [t for t, _ in pl] == list(range(1, n + 1))
                         for p, pl in self.plays.items()}

    # -- holdings ------------------------------------------------------------
    def _holdings(self, deals, decisions, up):
        dec = {d.player: d for d in decisions if d.action != "pass"}
        players = set(deals) | set(dec)
        for p in players:
            deal = deals.get(p)
            d = dec.get(p)
            dealt = mask_of(c for c in deal.cards if c & 15) if deal else 0
            if p == self.dealer and up is not None and up & 15 and deal is None:
                dealt |= 1 << up
            discards = d.discards if d else None
            draws = d.draws if d else None
            kept = 0
            if discards == 0 or discards == ():
                kept = dealt
                self.discard_known[p] = True
            elif isinstance(discards, tuple):
                gone = mask_of(c for c in discards if c & 15)
                if deal and all(c & 15 for c in deal.cards):
                    missing = gone & ~dealt
                    if missing:
                        self.errors.append(("not-held", p, f"{p} discarded cards not dealt to {p}",
                                            f"discarded {card_str(missing.bit_length() - 1)}"))
                kept = dealt & ~gone
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

    def _consistency(self, deals):
        seen: dict[int, str] = {}
        for p, pl in self.plays.items():
            for t, c in pl:
                if not c & 15:
                    continue
                if c in seen:
                    self.errors.append(("duplicate-card", p, f"the {card_str(c)} was played twice",
                                        f"{seen[c]} and {p} both played the {card_str(c)}"))
                seen[c] = f"{p} (trick {t})"
                self.played_mask |= 1 << c
        dealt_to: dict[int, str] = {}
        for p, d in deals.items():
            for c in d.cards:
                if c & 15:
                    if c in dealt_to and dealt_to[c] != p:
                        self.errors.append(("duplicate-card", p, f"the {card_str(c)} was dealt twice",
                                            f"dealt to {dealt_to[c]} and to {p}"))
                    dealt_to[c] = p
        for p, mask in self.post.items():
            for q, other in self.post.items():
                if q < p and mask & other:
                    c = (mask & other).bit_length() - 1
                    self.errors.append(("duplicate-card", p, f"the {card_str(c)} is in two hands",
                                        f"{q} and {p} both hold the {card_str(c)} after the draw"))
            for t, c in self.plays.get(p, []):
                if not c & 15:
                    continue
                owner = next((q for q, m in self.post.items() if q != p and m >> c & 1), None)
                if owner is not None:
                    self.errors.append(("duplicate-card", p, f"{p} played the {card_str(c)}, "
                                        f"which {owner} held", f"trick {t}"))
                elif self.full.get(p) and not self.post[p] >> c & 1:
                    self.errors.append(("not-held", p, f"{p} played the {card_str(c)} at trick {t}, "
                                        f"which is not in {p}'s hand",
                                        f"{p}'s hand after the draw: {_text(self.post[p])}"))

    def played_before(self, p: str, t: int) -> int:
        return mask_of(c for k, c in self.plays.get(p, []) if k < t and c & 15)

    def held_besides(self, p: str, t: int) -> tuple[int, list[int], bool]:
        """P's cards at trick t other than the one played there: (known mask, suits of
        cards known only by suit, whether that is the whole hand)."""
        own = self.by_trick.get(p, {}).get(t)
        own_bit = (1 << own) if own is not None and own & 15 else 0
        base = self.post.get(p, 0) & ~self.played_before(p, t) & ~own_bit
        if self.full.get(p):
            return base, [], True
        later = [c for k, c in self.plays.get(p, []) if k > t]
        mask = base | mask_of(c for c in later if c & 15)
        suits = [c >> 4 for c in later if not c & 15 and c != UNKNOWN]
        complete = self.complete.get(p, False) and UNKNOWN not in later
        return mask, suits, complete

    def whole_hand(self, p: str, t: int) -> int | None:
        """P's whole hand just before playing to trick t, when every card is known."""
        if self.full.get(p):
            return self.post[p] & ~self.played_before(p, t)
        if self.complete.get(p):
            rest = [c for k, c in self.plays[p] if k >= t]
            if all(c & 15 for c in rest):
                return mask_of(rest)
        return None

    def source(self, p: str, t: int, card: int | None, suit: int) -> str:
        """How the record shows P held ``card`` (or some card of ``suit``) at trick t."""
        if card is not None and card & 15:
            if self.drawn.get(p, 0) >> card & 1:
                return f"{p} drew it"
            if self.post.get(p, 0) >> card & 1:
                return f"{p} was dealt it"
            for k, c in self.plays.get(p, []):
                if k > t and c == card:
                    return f"{p} played it at trick {k}"
        for k, c in self.plays.get(p, []):
            if k > t and c >> 4 == suit:
                return f"{p} played the {card_str(c)} at trick {k}"
        return "the record"

    # -- order of play ------------------------------------------------------
    def order_from(self, leader: str) -> list[str] | None:
        if not self.seats or leader not in self.seats:
            return None
        i = self.seats.index(leader)
        return [p for p in self.seats[i:] + self.seats[:i] if p in self.active]

    def first_leader(self) -> str | None:
        if not self.seats or self.dealer not in self.seats:
            return None
        i = self.seats.index(self.dealer)
        for p in self.seats[i + 1:] + self.seats[:i + 1]:
            if p in self.active:
                return p
        return None

    def lead_reason(self, t: int, expected: str) -> str:
        if t == 1:
            return f"the first active player left of the dealer ({self.dealer}) leads: {expected}"
        return f"{expected} won trick {t - 1}"

    def winner(self, t: int, cards: list[int], trump) -> int | None:
        """Index of the winning card, or None when unknown cards might change it."""
        if trump is None or not cards or cards[0] == UNKNOWN:
            return None
        led = cards[0] >> 4
        best = None
        for i, c in enumerate(cards):
            if c & 15 and (best is None and c >> 4 in (led, trump)
                           or best is not None and beats(c, cards[best], trump)):
                best = i
        if best is None:
            return None
        unseen = FULL_DECK & ~self.played_mask
        for c in cards:
            if c & 15:
                continue
            pool = unseen if c == UNKNOWN else unseen & suit_mask(c >> 4)
            top_trump = pool & suit_mask(trump)
            if top_trump and beats(top_trump.bit_length() - 1, cards[best], trump):
                return None
            top_led = pool & suit_mask(led)
            if top_led and beats(top_led.bit_length() - 1, cards[best], trump):
                return None
        return best

    def equivalent(self, p: str, t: int, card: int, top: int, prior: list[int]) -> bool:
        """RULES.md §4: no unplayed card outside P's hand lies between ``card`` and ``top``."""
        if card == top:
            return True
        if card >> 4 != top >> 4 or (card & 15) > (top & 15):
            return False
        hand = self.whole_hand(p, t) or 0
        played = mask_of(prior)
        for trick in self.tricks[:t - 1]:
            played |= mask_of(c for _, c in trick.plays if c & 15)
        for rank in range((card & 15) + 1, top & 15):
            x = (card & ~15) | rank
            if not (hand >> x & 1 or played >> x & 1):
                return False
        return True


def _text(mask: int) -> str:
    return cards_text(cards_of(mask))
