"""The ways a hand's tricks may have gone where the record leaves a winner open: a card
not shown, a trick whose next lead contradicts its cards, or one only the next lead gives
a winner (docs/writing-hands.md, what a gap in the record hides), which is right only if the next trick is written from its lead.
The replay settles by the record's own reading; these are the others the table's claims
may pick, never grounds for a finding."""

from __future__ import annotations

import itertools

from ..cards import FULL_DECK, UNKNOWN, cards_of, suit_mask
from ..rules.engine import beats


MOST_IN_DOUBT = 3  # tricks in doubt a hand's readings are listed for (2**3)


def each_way(won: dict[str, int], unsure: list[tuple[str, str | None]]) -> list[dict[str, int]]:
    """The tricks won in each reading of the tricks in doubt, each given to the player its
    cards give it to or to the player who led next (no one, for a name not in the hand)."""
    ways = [dict(won)]
    for credited, led in unsure:
        ways = [{**w, p: w[p] + 1} for w in ways for p in (credited, led) if p is not None]
    return [w for i, w in enumerate(ways) if w not in ways[:i]]


MOST_OTHERS = 256  # other readings of the tricks only next leads give winners, listed


def may_have_won(plays, won, suits, short: bool) -> tuple[str, ...]:
    """The players who may have won a trick whichever of its cards was led (the order it
    is written in may be wrong), with any of ``suits`` as trump: those whose card is not
    shown or beaten by none written there; everyone, where a card is left out."""
    if short or None in suits:
        return tuple(won)
    return tuple(p for p, c in plays if p in won and (c == UNKNOWN or any(not any(
        d & 15 and (c & 15 or d >> 4 != c >> 4) and beats(d, c, s) for _, d in plays) for s in suits)))


def other_ways(readings, fifth) -> list[dict[str, int]] | None:
    """docs/writing-hands.md, what a gap in the record hides gives a trick its cards do not decide to the player who led the next;
    that holds only if the next trick is written from its lead, and people write a trick
    from the card that won it too.  So each of ``readings`` with such tricks (``fifth``:
    who led next, and who may have won it) given instead to another player who may have
    won them: readings the table's claims may pick where they contradict the next leads
    (never used to accuse).  None past MOST_OTHERS of them."""
    if not fifth:
        return []
    count = len(readings)
    for _, players in fifth:
        count *= len(players) + 1
    if count > MOST_OTHERS:
        return None
    out = []
    for reading in readings:
        ways = [reading]
        for nxt, players in fifth:
            ways += [{**w, nxt: w[nxt] - 1, p: w[p] + 1} for w in ways for p in players if p != nxt]
        out += ways[1:]
    return out


def pinned_ways(know, trump, reading: dict[str, int]) -> list[dict[str, int]] | None:
    """A card the record gives by suit only is pinned to the one card of its suit its
    player's hand as written leaves; a deal or draw typed wrong (a draw written as standing
    pat, say) pins the wrong one, and nothing else may contradict it.  So ``reading`` with
    each trick such a card decides given instead to a player another card of its suit
    (one not seen elsewhere) would give it to: readings the table's claims may pick where
    they contradict the pin (never used to accuse).  None past MOST_OTHERS of them."""
    opened: list[tuple[str, tuple[str, ...]]] = []
    unseen = FULL_DECK & ~know.played_mask
    for t, (written, trick) in enumerate(zip(know.recorded, know.tricks), 1):
        typed = dict(written.plays)
        pins = [i for i, (p, c) in enumerate(trick.plays)
                if c & 15 and typed.get(p, 0) & 15 == 0 and typed.get(p) not in (None, UNKNOWN)]
        if not pins or len(pins) > 2 or len(trick.plays) != len(know.active):
            continue
        cards = [c for _, c in trick.plays]
        w = know.winner(t, cards, trump)
        if w is None:
            continue
        winners = set()
        for ranks in itertools.product(*(cards_of(unseen & suit_mask(cards[i] >> 4) | 1 << cards[i]) for i in pins)):
            if len(set(ranks)) < len(ranks):
                continue
            other = list(cards)
            for i, c in zip(pins, ranks):
                other[i] = c
            v = know.winner(t, other, trump)
            if v is not None:
                winners.add(trick.plays[v][0])
        credited = trick.plays[w][0]
        players = tuple(p for p in know.active if p in winners and p != credited)
        if players:
            opened.append((credited, players))
    ways = other_ways([reading], opened)
    return ways if ways is None else [way for way in ways if min(way.values(), default=0) >= 0]


MOST_STEPS = 4096  # tricks walked listing the ways of ``led_ways``


def led_ways(know, trump, tricks, leader: str | None) -> list[dict[str, int]] | None:
    """The tricks each player won, every way the hand may have gone with each trick led by
    the winner of the one before, whatever card its line starts with (people write a
    trick from the card that won it, or backwards): where a trick's cards, so led, leave
    its winner open, each player who may have won it.  ``leader``: who led trick 1 (None:
    not known).  None past MOST_STEPS; none for tricks short of a card or naming a
    player twice or one not in the hand."""
    active = know.active
    if any(len(trick.plays) != len(active) or {p for p, _ in trick.plays} != set(active) for trick in tricks):
        return []
    ways: dict[tuple, dict[str, int]] = {}
    stack = [(0, leader, dict.fromkeys(active, 0))]
    steps = 0
    while stack:
        t, lead, won = stack.pop()
        if t == len(tricks):
            ways.setdefault(tuple(won.values()), won)
            continue
        steps += 1
        if steps > MOST_STEPS:
            return None
        plays = tricks[t].plays
        if lead is None:
            winners = may_have_won(plays, won, (trump,), False)
        else:
            plays = ((lead, dict(plays)[lead]), *((p, c) for p, c in plays if p != lead))
            w = know.winner(t + 1, [c for _, c in plays], trump)
            winners = (plays[w][0],) if w is not None else tuple(
                p for p, _ in plays if may_win(plays, p, trump))
        stack += [(t + 1, p, {**won, p: won[p] + 1}) for p in winners]
    return list(ways.values())


def led_next(know, t: int) -> str | None:
    """Who led the trick after place t; None after the last, or where the record
    contradicts that lead's card (the name may be what is wrong), or where the lead
    rotates (lead=rotate: who led next says nothing of who won)."""
    if t >= len(know.tricks) or know.rules.lead != "winner":
        return None
    p = know.tricks[t].plays[0][0]
    return None if (p, t + 1) in know.doubtful else p


def may_win(plays, p: str, trump) -> bool:
    """P's card in the trick may be the one that won it: of the led suit or trump, and no
    card written there beats it.  A card of P's not written, or a lead not shown, may be
    anything."""
    cards = [c for q, c in plays if q == p]
    if not cards or plays[0][1] == UNKNOWN or cards[0] == UNKNOWN or trump is None:
        return True
    mine, suit = cards[0], cards[0] >> 4
    if suit not in (plays[0][1] >> 4, trump):
        return False
    if not mine & 15:  # its rank not written: only a trump beats it, if it is none
        return not any(c & 15 and c >> 4 == trump != suit for _, c in plays)
    return not any(c & 15 and beats(c, mine, trump) for _, c in plays)


def borne_out(know, t: int, trick, w: int | None, nxt: str | None) -> int | None:
    """``w``, the index of the card that won trick t, unless the trick's names are out of
    clockwise order with its player's among those perhaps swapped, and the next lead
    (``nxt``) does not bear the winner out."""
    if w is not None and trick.plays[w][0] in know.scrambled.get(t, ()) and trick.plays[w][0] != nxt:
        return None
    return w


def winners_by_trick(know, trump, tricks=None) -> list[tuple[str, str | None, tuple[str, ...]]] | None:
    """Per trick, with ``trump`` as trump: the player its cards give it to (who led next,
    where the cards leave it open), who led next, and the players who may have won it
    where its cards leave it open (see ``may_have_won``); None where a trick is short or out
    of place.  ``tricks``: the tricks to count (the checks' by default)."""
    out = []
    for t, trick in enumerate(know.tricks if tricks is None else tricks, 1):
        if len(trick.plays) != len(know.active) or trick.number not in (None, t):
            return None
        nxt = led_next(know, t)
        w = borne_out(know, t, trick, know.winner(t, [c for _, c in trick.plays], trump), nxt)
        out.append((trick.plays[w][0], nxt, ()) if w is not None else
                   (nxt, nxt, may_have_won(trick.plays, know.active, (trump,), False)))
    return out


def tally(know, trump, led: bool = False, tricks=None) -> dict[str, int] | None:
    """The tricks each player won with ``trump`` as trump, a winner the cards leave open
    (with ``led``, any trick) taken from who led next; None where a trick is short or out
    of place, or its winner stays unknown."""
    credits = winners_by_trick(know, trump, tricks)
    if credits is None:
        return None
    won = dict.fromkeys(know.active, 0)
    for by_cards, nxt, _ in credits:
        p = nxt if led and nxt else by_cards
        if p not in won:
            return None
        won[p] += 1
    return won


def tallies(know, trump) -> list[dict[str, int]]:
    """The tricks each player won with ``trump`` as trump, every way the tricks whose cards
    give them to another player than the one who led next may have gone (the card, the
    trick's order or the lead may be written wrong), up to MOST_IN_DOUBT of them; past
    that, all by the cards and all by the next leads."""
    credits = winners_by_trick(know, trump)
    if credits is None:
        return []
    won = dict.fromkeys(know.active, 0)
    unsure: list[tuple[str, str | None]] = []
    for by_cards, nxt, _ in credits:
        if by_cards not in won:
            return []
        if nxt is not None and nxt != by_cards:
            unsure.append((by_cards, nxt if nxt in won else None))
        else:
            won[by_cards] += 1
    if len(unsure) > MOST_IN_DOUBT:
        return [w for w in (tally(know, trump), tally(know, trump, led=True)) if w]
    return each_way(won, unsure)


def sure_winner(know, t, cards, trump) -> int | None:
    """The index of the card that wins the trick whichever card was led: the top trump,
    or the top card of a trick all of one suit; None when the lead decides it or an
    unknown card might."""
    if trump is None:
        return None
    first = next((i for i, c in enumerate(cards) if c != UNKNOWN and c >> 4 == trump), None)
    if first is None:
        if UNKNOWN in cards or len({c >> 4 for c in cards}) != 1:
            return None
        first = 0
    order = [first] + [i for i in range(len(cards)) if i != first]
    w = know.winner(t, [cards[i] for i in order], trump)
    return None if w is None else order[w]
