"""Trick play (docs/rules.md, how a trick must be played): who wins a trick and which cards a player may play.

Works on card ints and hand bitmasks only; knows nothing of text or storage.
"""

from __future__ import annotations

from typing import NamedTuple

from ..cards import above, card_str, suit_mask
from .profiles import Rules

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


def beats(card: int, best: int, trump: int) -> bool:
    """Does ``card`` beat ``best``, the card now winning a trick (both known)?"""
    cs, bs = card >> 4, best >> 4
    if cs == bs:
        return (card & 15) > (best & 15)
    return cs == trump


def winning(cards, trump: int) -> int:
    """Index of the winning card among known cards, leader first (``beats`` card by card,
    written out: the replay asks this of every trick)."""
    best, top = 0, cards[0]
    for i in range(1, len(cards)):
        c = cards[i]
        if c >> 4 == top >> 4:
            if (c & 15) > (top & 15):
                best, top = i, c
        elif c >> 4 == trump:
            best, top = i, c
    return best


class Legal(NamedTuple):
    """The cards a player may play, and why the set is restricted (a rule key).  A named
    tuple: the search builds one at every turn it tries, and a tuple is quicker to make."""
    cards: int
    reason: str
    rule: str
    target: int | None = None  # the card that must be beaten, if any

    def explain(self, led: int | None = None) -> str:
        t = card_str(self.target) if self.target is not None else ""
        s = SUIT_NAMES[led] if led is not None and led < 4 else "the led suit"
        return {
            "lead": "on lead: any card",
            "follow": f"must follow {s}",
            "beat": f"must follow {s} and beat the {t}",
            "trump": f"void in {s}: must trump",
            "overtrump": f"void in {s}: must trump and beat the {t}" if t else f"void in {s}: must trump",
            "free": f"void in {s} and in trump: any card",
            "discard": f"void in {s}: any card, but a trump must beat the {t}",
            "any": "any card",
        }[self.reason]


def legal(hand: int, trick: list[int], trump: int, rules: Rules) -> Legal:
    """The legal plays for a player holding ``hand`` with ``trick`` already played.

    ``trick`` holds known cards, leader first (docs/rules.md, how a trick must be played, rules 1–4).
    """
    if not trick:
        return Legal(hand, "lead", "")
    led = trick[0] >> 4
    best = trick[winning(trick, trump)]
    follow = hand & suit_mask(led)
    if follow:
        if best >> 4 == led and rules.must_beat != "none":
            target = best
            if rules.must_beat == "previous":
                target = next(c for c in reversed(trick) if c >> 4 == led)
            beaters = follow & above(target)
            if beaters:
                return Legal(beaters, "beat", "must-beat", target)
        return Legal(follow, "follow", "must-follow")
    trumps = hand & suit_mask(trump) if trump < 4 else 0
    if not trumps:
        return Legal(hand, "free", "")
    if best >> 4 == trump:
        beaters = trumps & above(best)
    else:
        beaters = trumps
    if not rules.must_trump:
        if rules.must_overtrump and beaters and beaters != trumps:
            # no duty to trump, but a trump played must beat the trump winning the trick
            return Legal(hand & ~trumps | beaters, "discard", "must-overtrump", best)
        return Legal(hand, "any", "")
    if rules.must_overtrump and beaters:
        return Legal(beaters, "overtrump", "must-overtrump", best if best >> 4 == trump else None)
    if not beaters and rules.trump_when_cannot_win == "may":
        return Legal(hand, "any", "trump-when-cannot-win")
    return Legal(trumps, "trump", "must-trump")
