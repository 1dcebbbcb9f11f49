"""Cards as small ints: ``suit * 16 + rank`` (rank 2..14, 0 = unknown rank).

Suits are 0..3 for s h d c; suit 4 with rank 0 is the wholly unknown card ``??``.
A hand is a bitmask with bit ``card`` set for each card in it.
"""

from __future__ import annotations

SUIT_LETTERS = "shdc"
RANK_LETTERS = "??23456789TJQKA"  # index = rank value
UNKNOWN = 4 * 16  # ``??``
UNRANKED = frozenset((0, 16, 32, 48, UNKNOWN))  # the cards whose rank is not known (rank 0)
SUIT_SYMBOLS = {
    "s": 0, "h": 1, "d": 2, "c": 3,
    "\u2660": 0, "\u2665": 1, "\u2666": 2, "\u2663": 3,  # ♠ ♥ ♦ ♣
    "\u2664": 0, "\u2661": 1, "\u2662": 2, "\u2667": 3,  # ♤ ♡ ♢ ♧
}
_RANKS = {"a": 14, "k": 13, "q": 12, "j": 11, "t": 10, "10": 10, "?": 0}
_RANKS.update({str(n): n for n in range(2, 10)})

SUIT_MASK = 0x7FFC  # ranks 2..14 of suit 0; shift by 16 * suit
FULL_DECK = sum(SUIT_MASK << (16 * s) for s in range(4))
DECK = tuple(s * 16 + r for s in range(4) for r in range(2, 15))
_CACHE: dict[str, int] = {}


class CardError(ValueError):
    """Text that is not a card or a suit."""


def parse_suit(text: str) -> int:
    try:
        return SUIT_SYMBOLS[text.lower()]
    except KeyError:
        raise CardError(f"not a suit: {text!r}") from None


def parse_card(text: str) -> int:
    """``Qs``, ``10h``, ``T♥``, ``?h`` or ``??`` → card int."""
    card = _CACHE.get(text)
    if card is not None:
        return card
    if text == "??":
        card = UNKNOWN
    else:
        rank = _RANKS.get(text[:-1].lower())
        if rank is None:
            raise CardError(f"not a card: {text!r}")
        card = parse_suit(text[-1]) * 16 + rank
    _CACHE[text] = card
    return card


def card_str(card: int) -> str:
    """The canonical text: rank letter + lowercase suit (``Ts``, ``?h``, ``??``)."""
    return _TEXT[card]


_TEXT = [RANK_LETTERS[c & 15] + SUIT_LETTERS[c >> 4] if c & 15 < len(RANK_LETTERS) else None
         for c in range(UNKNOWN)] + ["??"]


def suit_of(card: int) -> int:
    """0..3, or 4 for ``??``."""
    return card >> 4


def rank_of(card: int) -> int:
    """2..14, or 0 when the rank is unknown."""
    return card & 15


def is_known(card: int) -> bool:
    return card & 15 != 0


def suit_mask(suit: int) -> int:
    return SUIT_MASK << (16 * suit)


def suits_mask(suits: int) -> int:
    """Mask of every card of the suits whose bits (0-3) are set."""
    return sum(SUIT_MASK << (16 * s) for s in range(4) if suits >> s & 1)


def above(card: int) -> int:
    """Mask of the cards of the same suit that outrank ``card``."""
    return (SUIT_MASK & ~((2 << (card & 15)) - 1)) << (16 * (card >> 4))


def cards_of(mask: int) -> list[int]:
    """The cards in a mask, lowest bit first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_text(cards) -> str:
    return " ".join(card_str(c) for c in cards)
