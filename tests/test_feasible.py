"""Whether the unseen cards can still be dealt (Hall's condition), in Python and in C,
against a plain search over every way to deal them: the cinch search asks it at every
card an opponent may play, and takes its short cut (each group of seats, fewest allowed
cards first, allowing what it and those before it need) only where it is exact."""

from __future__ import annotations

import random

import pytest

from booray_audit.cinch import judge as cinch
from booray_audit.cinch.position import HOLD, _feasible


def _dealable(cards: list[int], counts: list[int], forbidden: list[int], holds: list[int]) -> bool:
    """Deal ``cards`` one by one to a seat that may take it (or to no one: it was never
    dealt); True when every seat ends with its count, held cards included."""
    need = list(counts)

    def deal(i: int) -> bool:
        if i == len(cards):
            return not any(need)
        c = 1 << cards[i]
        owner = next((s for s, h in enumerate(holds) if h & c), None)
        seats = [owner] if owner is not None else [s for s in range(len(need)) if not forbidden[s] & c]
        for s in seats:
            if need[s] and not forbidden[s] & c:
                need[s] -= 1
                if deal(i + 1):
                    return True
                need[s] += 1
        return owner is None and deal(i + 1)

    return sum(need) <= len(cards) and deal(0)


def _case(rng: random.Random):
    deck = rng.randint(1, 9)
    seats = rng.randint(1, 5)
    cards = sorted(rng.sample(range(16), deck))
    unseen = sum(1 << c for c in cards)
    counts = [rng.randint(0, 3) for _ in range(seats)]
    forbidden = [sum(1 << c for c in cards if rng.random() < rng.choice((0.1, 0.4, 0.7)))
                 for _ in range(seats)]
    holds = [0] * seats
    for c in cards:
        if rng.random() < 0.1:
            holds[rng.randrange(seats)] |= 1 << c
    return cards, unseen, counts, forbidden, holds


def _python(unseen, counts, forbidden, holds) -> bool:
    return _feasible(unseen, counts, [f | h << HOLD for f, h in zip(forbidden, holds)], -1)


def _compiled(unseen, counts, forbidden, holds) -> bool:
    return cinch._search.feasible(unseen, counts, forbidden, holds)


@pytest.mark.parametrize("check, seed", [
    (_python, 7),
    pytest.param(_compiled, 8, marks=pytest.mark.skipif(cinch._search is None,
                                                         reason="the compiled search is not built here")),
], ids=["python", "compiled"])
def test_agrees_with_dealing_every_way(check, seed):
    rng = random.Random(seed)
    answers = set()
    for _ in range(3000):
        cards, unseen, counts, forbidden, holds = _case(rng)
        expected = _dealable(cards, counts, forbidden, holds)
        assert check(unseen, counts, forbidden, holds) == expected, (cards, counts, forbidden, holds)
        answers.add(expected)
    assert answers == {True, False}


def test_the_short_cut_needs_the_smallest_group_first():
    """Two seats that may take only the same two cards, and a third that may take any:
    each allows enough for itself, not for both together."""
    unseen = 0b1111
    counts, forbidden = [1, 1, 1], [0b1100, 0b1100, 0]
    assert _feasible(unseen, counts, forbidden, -1)
    counts = [2, 1, 1]
    assert not _feasible(unseen, counts, forbidden, -1)
    if cinch._search is not None:
        assert cinch._search.feasible(unseen, counts, forbidden, [0, 0, 0]) is False
