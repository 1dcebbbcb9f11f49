"""The refuter (concrete deals in front of the cinch search) against the brute-force
oracle: it may only ever say "no cinch", and it must be right each time it does."""

from __future__ import annotations

import random

import pytest

from booray_audit.refute import refutes

from .oracle import VARIANTS, oracle_value, random_position


def refuted_and_denied(positions) -> tuple[int, int]:
    """(needs k the refuter refuted, needs k the oracle says P cannot make) over
    (position, facts, rules); fails on any refutation the oracle denies."""
    refuted = denied = 0
    for pos, facts, rules in positions:
        value = oracle_value(facts, rules)
        for k in range(1, pos.hand.bit_count() + 1):
            if refutes(pos, k, rules):
                assert value < k, (pos, k, value)
                refuted += 1
            denied += value < k
    return refuted, denied


@pytest.mark.parametrize("seed", range(4))
def test_every_refutation_is_a_position_the_oracle_calls_no_cinch(seed):
    rng = random.Random(500 + seed)
    positions = (random_position(rng, rules, ranks=4, upcard=i % 3 == 0) + (rules,)
                 for i in range(250) for rules in [VARIANTS[i % len(VARIANTS)]])
    refuted, denied = refuted_and_denied(positions)
    # and it settles most positions that are no cinch (what it is for)
    assert refuted >= 0.7 * denied, (refuted, denied)


def test_wider_decks_and_more_players():
    rng = random.Random(41)
    positions = (random_position(rng, rules, suits=suits, ranks=ranks, hand_size=hand_size,
                                 players=(players, players)) + (rules,)
                 for players, hand_size, ranks, suits in ((3, 4, 6, 2), (5, 3, 5, 3), (4, 3, 5, 4))
                 for i in range(4) for rules in [VARIANTS[i % len(VARIANTS)]])
    refuted, denied = refuted_and_denied(positions)
    assert refuted >= 0.6 * denied, (refuted, denied)


def test_the_judge_answers_as_before_with_the_refuter_in_front():
    """A/B on every decision a seeded 6-player corpus meets: the refuter changes no answer
    the search gave; a check the search left undecidable may only become "no cinch".
    (`python bench/ab.py --b refuter` runs this on 20,000+ decisions at 6 and 8 players.)"""
    import importlib.util
    from .conftest import ROOT
    spec = importlib.util.spec_from_file_location("ab", ROOT / "bench" / "ab.py")
    ab = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ab)
    seen = ab.decisions(6, 120, 61)
    assert len(seen) >= 200
    result = ab.compare(seen, *ab.SIDES["refuter"])
    assert result["differ"] == []
    assert result["identical"] + result["newly_settled"] == result["decisions"]
