"""Concrete deals that show a position is no cinch, before any search.

A cinch means P makes its tricks whatever the unseen cards are and however the others
play (solver.py).  So one deal of the unseen cards that fits everything the record shows
(each opponent's count, the cards its plays showed it cannot hold, the up-card with the
dealer), with the opponents playing one fixed legal policy, is one adversary: if even a
P who sees every card cannot make its tricks against it, there is no cinch.  The
refuter can only ever say "no cinch"; it never claims one.  It tries a few deals (the
top cards spread round-robin from P's left; every trump with one opponent; each
opponent's cards in as few suits as possible) under two policies (win as cheaply as
possible; play the highest card), which settles most positions in a fraction of what
the search costs.  The compiled judge first plays each deal out double dummy (every
seat seeing every card, the others playing to stop P: ``double_dummy``, compiled in
_search.c), which refutes whatever a policy refutes on that deal and some more; and
plays the policies with their compiled twin (``versus_policy``), ``_best`` the reference.
tests/test_refute.py holds it to the brute-force oracle.
"""

from __future__ import annotations

from ..cards import cards_of
from ..rules.engine import beats, legal, winning
from ..rules.profiles import Rules


def refutes(pos, k: int, rules: Rules, play_out=None, versus=None) -> bool:
    """True when some deal and policy keep even an all-seeing P under ``k`` more tricks
    (so the position is no cinch); False says nothing.  ``play_out(deal, pos, me, k,
    rules)``, when given, is tried first on each deal (``double_dummy`` or its compiled
    twin, with a budget): False refutes; True means P makes its tricks against the best
    defence there, so against no policy can it fail; None (past its budget) leaves that
    deal to the policies.  ``versus(deal, pos, me, k, rules, i)``, when given, plays the
    i-th policy in place of ``_best`` (its compiled twin): the tricks P makes, or None
    for ``_best`` to answer."""
    me = pos.seats.index(pos.me)
    for deal in _deals(pos, me):
        if deal is not None and play_out is not None:
            made = play_out(deal, pos, me, k, rules)
            if made is False:
                return True
            if made:
                continue
        for i, policy in enumerate(POLICIES):
            tricks = versus(deal, pos, me, k, rules, i) if versus is not None and deal is not None else None
            if tricks is None:
                tricks = _best(deal, pos, me, k, rules, policy)
            if tricks < k:
                return True
    return False


class _Spent(Exception):
    """The double dummy went past its nodes."""


def double_dummy(hands, pos, me: int, k: int, rules: Rules, nodes: int) -> tuple[bool | None, int]:
    """(Can P make ``k`` more tricks on this deal when every seat sees every card and the
    others play to stop it?, positions visited).  None past ``nodes`` positions.  If
    not, there is no cinch: a P who sees the deal does at least as well as one who does
    not, and these opponents are one adversary.  ``hands``: each seat's cards, P's
    included.  The reference for the compiled one (_search.c): the same moves in the same
    order (each seat's lowest card first: the others keep their high cards to stop P
    later, which finds refutations sooner), the positions on lead remembered."""
    n, trump = len(pos.seats), pos.trump
    hands = [pos.hand if i == me else hands[i] for i in range(n)]
    memo: dict = {}
    visited = 0

    def play(trick: list, won: int) -> bool:
        nonlocal visited
        visited += 1
        if visited > nodes:
            raise _Spent
        played = {j for j, _ in trick}
        last = trick[-1][0]
        seat = next((i for i in ((last + d) % n for d in range(1, n + 1)) if hands[i] and i not in played), None)
        cards = [c for _, c in trick]
        if seat is None:  # the trick is complete
            winner = trick[winning(cards, trump)][0]
            won += winner == me
            if won >= k:
                return True
            if won + hands[me].bit_count() < k:
                return False
            return lead(winner, won)
        mine = seat == me
        options = legal(hands[seat], cards, trump, rules).cards
        while options:
            c = (options & -options).bit_length() - 1
            options &= ~(1 << c)
            hands[seat] &= ~(1 << c)
            try:
                made = play(trick + [(seat, c)], won)
            finally:
                hands[seat] |= 1 << c
            if made == mine:
                return made
        return not mine

    def lead(seat: int, won: int) -> bool:
        key = (tuple(hands), seat, won)
        made = memo.get(key)
        if made is not None:
            return made
        mine = seat == me
        made = not mine
        options = hands[seat]
        while options:
            c = (options & -options).bit_length() - 1
            options &= ~(1 << c)
            hands[seat] &= ~(1 << c)
            try:
                answer = play([(seat, c)], won)
            finally:
                hands[seat] |= 1 << c
            if answer == mine:
                made = answer
                break
        memo[key] = made
        return made

    try:
        return (play(list(pos.trick), 0) if pos.trick else lead(me, 0)), visited
    except _Spent:
        return None, visited


def _strength(card: int, trump: int) -> int:
    return (card & 15) + (100 if card >> 4 == trump else 0)


def _deals(pos, me: int):
    """Deals of the unseen cards to the opponents that fit the record, one by one."""
    n = len(pos.seats)
    seats = [(me + d) % n for d in range(1, n) if pos.counts[(me + d) % n] > 0]  # from P's left
    if not seats:
        return
    cards = [c for c in range(64) if pos.unseen >> c & 1]
    by_strength = sorted(cards, key=lambda c: -_strength(c, pos.trump))
    yield _deal(pos, seats, by_strength, 0)
    trumps = sum(1 for c in cards if c >> 4 == pos.trump)
    if trumps:
        for j in range(len(seats)):
            yield _deal(pos, seats[j:] + seats[:j], by_strength, trumps)
    by_suit = sorted(cards, key=lambda c: (c >> 4 != pos.trump, c >> 4, -(c & 15)))
    for j in range(len(seats)):
        yield _deal(pos, seats[j:] + seats[:j], by_suit, len(by_suit))


def _deal(pos, seats: list[int], order: list[int], fill: int) -> list[int] | None:
    """Give the cards in ``order`` to ``seats``: the first ``fill`` of them filling each
    seat in turn, the rest round-robin; cards a seat is known to hold go to it first.
    None when the result does not fit the record (the refuter then skips it)."""
    hands = [0] * len(pos.seats)
    need = list(pos.counts)
    need[pos.seats.index(pos.me)] = 0
    allowed = {}
    for i in seats:
        held = pos.holds[i] if i < len(pos.holds) else 0
        hands[i] |= held
        need[i] -= held.bit_count()
        allowed[i] = pos.unseen & ~pos.forbidden[i] & ~held
    taken = 0
    for h in hands:
        taken |= h
    turn = 0
    for placed, c in enumerate(order):
        if taken >> c & 1:
            continue
        spread = placed >= fill
        for step in range(len(seats)):
            i = seats[(turn + step) % len(seats)]
            if need[i] > 0 and allowed[i] >> c & 1:
                hands[i] |= 1 << c
                need[i] -= 1
                taken |= 1 << c
                if spread:
                    turn = (turn + step + 1) % len(seats)
                break
    if any(need[i] for i in seats):
        return None
    return hands


def _best(hands, pos, me: int, k: int, rules: Rules, policy) -> int:
    """The most tricks (up to ``k``) an all-seeing P makes from here against ``hands``
    played by ``policy``; ``k`` when the deal does not fit (it refutes nothing).  Only
    P's turns branch: the opponents' plays follow from the policy."""
    if hands is None:
        return k
    n = len(pos.seats)
    trump = pos.trump
    memo: dict = {}
    choices: dict = {}

    def play(hand: int, cards: list[int]) -> int:
        """The policy's card for a hand and the trick so far (remembered: it recurs)."""
        key = (hand, *cards)
        c = choices.get(key)
        if c is None:
            c = choices[key] = policy(hand, cards, trump, rules)
        return c

    def turn(hands: list, trick: list, after: list, won: int) -> int:
        """P to play to ``trick`` (``after``: the seats to play after P in it)."""
        if won + hands[me].bit_count() < k:
            return won  # even every trick left would not do
        key = (tuple(hands), tuple(trick), won)
        hit = memo.get(key)
        if hit is not None:
            return hit
        cards = [c for _, c in trick]
        best = won
        options = legal(hands[me], cards, trump, rules).cards
        while options and best < k:
            low = options & -options
            options ^= low
            now = hands[:]
            now[me] &= ~low
            t = trick + [(me, low.bit_length() - 1)]
            for seat in after:
                c = play(now[seat], [x for _, x in t])
                now[seat] &= ~(1 << c)
                t.append((seat, c))
            w = t[winning([x for _, x in t], trump)][0]
            got = won + (w == me)
            if got >= k or not now[me]:
                best = max(best, got)
                continue
            # the next trick, led by the winner: the opponents before P play at once
            order = [(w + d) % n for d in range(n) if (w + d) % n == me or now[(w + d) % n]]
            at = order.index(me)
            t = []
            for seat in order[:at]:
                c = play(now[seat], [x for _, x in t])
                now[seat] &= ~(1 << c)
                t.append((seat, c))
            best = max(best, turn(now, t, order[at + 1:], got))
        memo[key] = best
        return best

    start = [pos.hand if i == me else hands[i] for i in range(n)]
    played = {j for j, _ in pos.trick}
    first = pos.trick[0][0] if pos.trick else me
    order = [(first + d) % n for d in range(n) if (first + d) % n == me or start[(first + d) % n]
             or (first + d) % n in played]
    return turn(start, list(pos.trick), order[order.index(me) + 1:], 0)


def _cheapest(hand: int, cards: list[int], trump: int, rules: Rules) -> int:
    """Win the trick as cheaply as possible, else throw the lowest card; lead the highest."""
    mine = cards_of(legal(hand, cards, trump, rules).cards)
    if not cards:
        return max(mine, key=lambda c: _strength(c, trump))
    best = cards[winning(cards, trump)]
    winners = [c for c in mine if beats(c, best, trump)]
    return min(winners or mine, key=lambda c: _strength(c, trump))


def _highest(hand: int, cards: list[int], trump: int, rules: Rules) -> int:
    """Play the highest card allowed; lead the lowest."""
    mine = cards_of(legal(hand, cards, trump, rules).cards)
    if not cards:
        return min(mine, key=lambda c: _strength(c, trump))
    return max(mine, key=lambda c: _strength(c, trump))


POLICIES = (_cheapest, _highest)  # in this order in _search.c's versus_policy (0, 1)
