"""A player's view just before a play (docs/rules.md, the cinch): the position the search
solves, what a legal play reveals about its player's hand, whether any deal fits every
constraint, the simple top-trumps count, and the position read from the record
(``position``, asked of the judge's ``Knowledge``)."""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import FULL_DECK, above, card_str, cards_of, suit_mask
from ..rules.engine import beats, winning
from ..rules.profiles import Rules


@dataclass(frozen=True, slots=True)
class Position:
    """P's view just before P plays."""
    hand: int                       # P's cards
    unseen: int                     # cards P has not seen (in opponents' hands or out of play)
    trump: int
    seats: tuple[str, ...]          # active players in clockwise order, P among them
    me: str
    counts: tuple[int, ...]         # cards left per seat (P's entry 0)
    forbidden: tuple[int, ...]      # per seat: cards that player's plays showed it cannot hold
    trick: tuple[tuple[int, int], ...]  # (seat index, card) played so far in this trick
    holds: tuple[int, ...] = ()     # per seat: unseen cards it is known to hold (the up-card)

    def constraints(self) -> tuple[int, ...]:
        """The solver's per-seat constraints: ``forbidden``, with ``holds`` above bit HOLD."""
        if not any(self.holds):
            return self.forbidden
        return tuple(f | h << HOLD for f, h in zip(self.forbidden, self.holds))


# A seat's constraint mask carries the cards it cannot hold in its low bits and, shifted
# up by HOLD, the unseen cards it is known to hold; played cards leave both.
HOLD = 64
LOW = (1 << HOLD) - 1


@dataclass(frozen=True, slots=True)
class Unjudged:
    """The replay hook's answer when the record does not show P's view (P's whole hand,
    the cards played so far or the order of play): no cinch claimed, none ruled out."""

    def __bool__(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class Contradicted:
    """``judge``'s answer when no deal of the unseen cards fits every play and fact the
    record shows: never a cinch (a cinch over no deals proves nothing, docs/rules.md, the cinch)."""

    def __bool__(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class Cinch:
    sure: int
    why: str

    def __bool__(self) -> bool:
        return True


def reveal(card: int, prior: list[int], trump: int, rules: Rules, best: int | None = None) -> int:
    """Cards a player cannot hold after playing ``card`` legally on ``prior`` (rules 2–3);
    ``best`` is the card winning ``prior``, when the caller knows it."""
    if not prior:
        return 0
    led = prior[0] >> 4
    if best is None:
        best = prior[winning(prior, trump)]
    suit = card >> 4
    out = 0
    if suit == led:
        if best >> 4 == led and rules.must_beat != "none":
            target = best if rules.must_beat == "winner" else next(c for c in reversed(prior) if c >> 4 == led)
            if not beats(card, target, trump):
                out |= suit_mask(led) & above(target)
        return out
    out |= suit_mask(led)
    if led == trump:
        return out
    if suit == trump:  # with or without a duty to trump, a trump played must over-trump (rule 3)
        if rules.must_overtrump and best >> 4 == trump and not beats(card, best, trump):
            out |= suit_mask(trump) & above(best)
        return out
    if not rules.must_trump:
        return out
    if rules.trump_when_cannot_win == "must" or best >> 4 != trump:
        out |= suit_mask(trump)
    else:
        out |= suit_mask(trump) & above(best)
    return out


def _feasible(unseen: int, counts, forbidden, skip: int) -> bool:
    """Hall's condition: every group of opponents can be given its cards at once.

    Opponents with the same allowed cards are merged; an opponent that may hold any
    unseen card satisfies every group it is in, so only the others are enumerated, and
    only when two short cuts (each exact where it answers) do not settle it.  Cards a
    seat is known to hold (above bit HOLD) are given to it first.  The compiled search
    (``_search.feasible``) does the same; tests/test_feasible.py holds both to dealing
    the cards every way."""
    held = 0
    for f in forbidden:
        held |= f >> HOLD
    if held:
        counts = list(counts)
        for i, f in enumerate(forbidden):
            mine = f >> HOLD
            if mine:
                if mine & f or mine & ~unseen:
                    return False
                counts[i] -= mine.bit_count()
                if counts[i] < 0:
                    return False
        unseen &= ~held
    groups: dict[int, int] = {}
    total = 0
    for i, n in enumerate(counts):
        if i != skip and n > 0:
            total += n
            allowed = unseen & ~forbidden[i]
            groups[allowed] = groups.get(allowed, 0) + n
    if unseen.bit_count() < total:
        return False
    # Enough, and exact: every seat still to be dealt to allows as many cards as all of
    # them need (each set of seats allows at least any one member's cards).
    if all(a.bit_count() >= total for a in groups):
        return True
    items = [(a, n) for a, n in groups.items() if a != unseen]
    for a, n in items:
        if a.bit_count() < n:
            return False
    k = len(items)
    if k < 2:
        return True
    # Enough, and exact: with the groups in order of allowed cards, fewest first, each
    # allowing at least all the cards it and those before it need, every set of groups
    # allows at least its last member's cards, which are at least what the set needs.
    need = 0
    for size, n in sorted((a.bit_count(), n) for a, n in items):
        need += n
        if size < need:
            break
    else:
        return True
    unions = [0] * (1 << k)
    needs = [0] * (1 << k)
    for sub in range(1, 1 << k):
        low = sub & -sub
        j = low.bit_length() - 1
        rest = sub ^ low
        unions[sub] = unions[rest] | items[j][0]
        needs[sub] = needs[rest] + items[j][1]
        if unions[sub].bit_count() < needs[sub]:
            return False
    return True


def top_trumps(hand: int, captors: int, trump: int) -> int:
    """P's trumps minus the most of them that higher ``captors`` could each capture once
    (a maximum matching, greedy from the top: docs/rules.md, the cinch `top-trumps`)."""
    mine = hand & suit_mask(trump)
    free = sure = 0
    for rank in range(14, 1, -1):
        bit = 1 << (trump * 16 + rank)
        if captors & bit:
            free += 1
        elif mine & bit:
            if free:
                free -= 1
            else:
                sure += 1
    return sure


def _possible(unseen: int, counts, forb) -> int:
    """The unseen cards some opponent still holding cards may hold."""
    out = 0
    for j, n in enumerate(counts):
        if n:
            out |= unseen & ~forb[j]
    return out


def others_out_of_trump(pos: Position) -> bool:
    """P knows no other player holds a trump: none unseen, or every opponent's plays
    showed it holds none of the unseen ones (Wikipedia's "play to win" on lead)."""
    return not _possible(pos.unseen, pos.counts, pos.forbidden) & suit_mask(pos.trump)  # P's count is 0


def out_of_reach(pos: Position) -> int:
    """The unseen cards no opponent still holding cards can hold, from what its plays
    revealed: out of play as far as P knows (docs/rules.md, the cinch)."""
    return pos.unseen & ~_possible(pos.unseen, pos.counts, pos.forbidden)


def _why(pos: Position, won: int, sure: int) -> str:
    trumps = pos.hand & suit_mask(pos.trump)
    top = " ".join(card_str(c) for c in reversed(cards_of(trumps)))
    return f"won {won} trick{'s' if won != 1 else ''}, {sure} sure with {top}"


def position(know, p: str, t: int, prior: list[int]) -> Position | None:
    """P's view before playing to trick t (docs/rules.md, the cinch), or None when the record does not
    show it: P's whole hand, every card played so far and the order of play known.

    What an opponent's play revealed is kept only while the record does not prove that
    play illegal (a card the same player held then, the up-card included), and not from
    a trick the replay found may be written out of the order of play; none after a trick
    whose cards the next lead contradicts (``Knowledge.suspect``); the up-card
    can be in no other opponent's hand, and is in the dealer's while it is known kept."""
    hand = know.whole_hand(p, t)
    trump = know.trump
    seats = know.cycle
    if hand is None or trump is None or not seats or p not in seats or any(k < t for k in know.suspect):
        return None
    index = {s: i for i, s in enumerate(seats)}
    counts = [know.rules.cards] * len(seats)
    forb = [0] * len(seats)
    played = 0
    for k, trick in enumerate(know.tricks[:t], 1):
        plays = trick.plays if k < t else trick.plays[:len(prior)]
        seen: list[int] = []
        best = 0  # the card winning the trick so far
        for q, c in plays:
            if not c & 15 or q not in index:
                return None
            i = index[q]
            if q != p and seen and k not in know.doubted:
                shown = reveal(c, seen, trump, know.rules, best)
                if shown:
                    held, suits = know.proven_held(q, k)
                    if not (shown & held or any(shown & suit_mask(s) == suit_mask(s) for s in suits)):
                        forb[i] |= shown
            counts[i] -= 1
            played |= 1 << c
            if not seen or beats(c, best, trump):
                best = c
            seen.append(c)
    unseen = FULL_DECK & ~played & ~hand & ~know.out_of_play(p)
    holds = [0] * len(seats)
    up = know.up
    if up is not None and unseen >> up & 1 and not know.contested >> up & 1:
        dealer = index.get(know.up_player)
        if know.up_player is not None:  # with no dealer known, the up-card may be in any hand
            for j in range(len(seats)):
                if j != dealer:
                    forb[j] |= 1 << up  # only the dealer, who draws last, can have the up-card
            if dealer is not None and know.keeps_up(t):
                holds[dealer] = 1 << up
    me = index[p]
    counts[me] = 0
    cur = know.tricks[t - 1].plays[:len(prior)] if t - 1 < len(know.tricks) else ()
    trick = tuple((index[q], c) for q, c in cur)
    return Position(hand, unseen, trump, tuple(seats), p, tuple(counts),
                    tuple(f & unseen for f in forb), trick, tuple(holds))
