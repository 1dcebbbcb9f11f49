"""The refuter (concrete deals in front of the cinch search) against the brute-force
oracle: it may only ever say "no cinch", and it must be right each time it does."""

from __future__ import annotations

import random

import pytest

from booray_audit.cinch import judge as cinch
from booray_audit.cards import mask_of, parse_card
from booray_audit.cinch.position import Position
from booray_audit.cinch.refute import _deals, double_dummy, refutes
from booray_audit.rules.profiles import profile

from .oracle import VARIANTS, oracle_value, random_position


STD = profile("standard")


def python_double_dummy(nodes):
    def play_out(deal, pos, me, k, rules):
        return double_dummy(deal, pos, me, k, rules, nodes)[0]
    return play_out


# the refuter as the Python judge runs it, and with each deal played out double dummy
# first (as the compiled judge runs it; here in Python, small budgets included)
PLAY_OUT = {"policies": None, "double dummy": python_double_dummy(5_000),
            "double dummy, 40 nodes": python_double_dummy(40)}


def refuted_and_denied(positions, play_out=None) -> tuple[int, int]:
    """(needs k the refuter refuted, needs k the oracle says P cannot make) over
    (position, facts, rules); fails on any refutation the oracle denies."""
    refuted = denied = 0
    for pos, facts, rules in positions:
        value = oracle_value(facts, rules)
        for k in range(1, pos.hand.bit_count() + 1):
            if refutes(pos, k, rules, play_out):
                assert value < k, (pos, k, value)
                refuted += 1
            denied += value < k
    return refuted, denied


@pytest.mark.parametrize("play_out", sorted(PLAY_OUT))
@pytest.mark.parametrize("seed", range(4))
def test_every_refutation_is_a_position_the_oracle_calls_no_cinch(seed, play_out):
    rng = random.Random(500 + seed)
    positions = (random_position(rng, rules, ranks=4, upcard=i % 3 == 0) + (rules,)
                 for i in range(250) for rules in [VARIANTS[i % len(VARIANTS)]])
    refuted, denied = refuted_and_denied(positions, PLAY_OUT[play_out])
    # and it settles most positions that are no cinch (what it is for)
    assert refuted >= 0.7 * denied, (refuted, denied)


@pytest.mark.parametrize("play_out", sorted(PLAY_OUT))
def test_wider_decks_and_more_players(play_out):
    rng = random.Random(41)
    positions = (random_position(rng, rules, suits=suits, ranks=ranks, hand_size=hand_size,
                                 players=(players, players)) + (rules,)
                 for players, hand_size, ranks, suits in ((3, 4, 6, 2), (5, 3, 5, 3), (4, 3, 5, 4))
                 for i in range(4) for rules in [VARIANTS[i % len(VARIANTS)]])
    refuted, denied = refuted_and_denied(positions, PLAY_OUT[play_out])
    assert refuted >= 0.6 * denied, (refuted, denied)


def test_the_double_dummy_refutes_what_the_policies_refute():
    """On the same deals it plays the others' best defence, so each policy's refutation is
    its too (within its budget)."""
    rng = random.Random(77)
    checked = 0
    for i in range(300):
        rules = VARIANTS[i % len(VARIANTS)]
        pos, _ = random_position(rng, rules, suits=3, ranks=8, hand_size=4, players=(3, 5))
        for k in range(1, pos.hand.bit_count() + 1):
            if refutes(pos, k, rules):
                assert refutes(pos, k, rules, PLAY_OUT["double dummy"]), (pos, k)
                checked += 1
    assert checked >= 100, checked


def _mask(cards: str) -> int:
    return mask_of(parse_card(c) for c in cards.split())


# From a generated 6-player log: p0 is to lead with As 5h Th Qh Ah, hearts trump, and
# needs 3 more tricks; the 7h is the up-card, with the dealer (p5).
OPENING = Position(_mask("As 5h Th Qh Ah"), _mask(
    "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks 2h 3h 4h 6h 7h 8h 9h Jh Kh 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad "
    "2c 3c 4c 5c 6c 7c 8c Tc Jc Qc Kc Ac"), 1, tuple(f"p{i}" for i in range(6)), "p0", (0, 5, 5, 5, 5, 5),
    (_mask("7h"),) * 5 + (0,), ())


def test_a_deal_played_out_double_dummy_refutes_where_the_policies_do_not():
    """The exact search needs some 150,000 positions to show this is no cinch; the
    refuter's policies find no deal that shows it, one deal played out double dummy does."""
    assert not refutes(OPENING, 3, STD)
    assert refutes(OPENING, 3, STD, PLAY_OUT["double dummy"])
    if cinch._search is not None:
        assert refutes(OPENING, 3, STD, cinch._played_out(cinch.DEAL_NODES))
        assert not cinch.Solver(STD, None).solve(OPENING, 3)


@pytest.mark.skipif(cinch._search is None, reason="the compiled search is not built here")
def test_the_compiled_double_dummy_plays_as_the_python_one():
    """The same answer and the same count of positions, on every deal the refuter tries,
    under every variant of the rules, with budgets that run out and ones that do not."""
    rng = random.Random(78)
    compared = spent = 0
    for i in range(400):
        rules = VARIANTS[i % len(VARIANTS)]
        pos, _ = random_position(rng, rules, suits=4, ranks=9, hand_size=5, players=(2, 6),
                                     upcard=i % 2 == 0, tricks_first=0)
        me = pos.seats.index(pos.me)
        for deal in _deals(pos, me):
            if deal is None:
                continue
            for k in range(1, pos.hand.bit_count() + 1):
                for nodes in (30, 3_000):
                    want = double_dummy(deal, pos, me, k, rules, nodes)
                    answer, visited = cinch._search.double_dummy(
                        cinch._seen(deal, pos, me), me, pos.trump, pos.trick, k, *cinch._duties(rules), nodes)
                    assert ({1: True, 0: False, -1: None}[answer], visited) == want, (pos, deal, k, nodes)
                    compared += 1
                    spent += want[0] is None
    assert compared >= 2000 and spent >= 100, (compared, spent)


@pytest.mark.skipif(cinch._search is None, reason="the compiled search is not built here")
def test_the_compiled_policy_play_out_makes_the_tricks_the_python_one_makes():
    """Every deal the refuter tries, each policy, every need, under every variant of the
    rules: the same tricks as refute._best; past its nodes it gives way (None)."""
    from booray_audit.cinch.refute import POLICIES, _best
    rng = random.Random(91)
    compared = spent = 0
    for i in range(300):
        rules = VARIANTS[i % len(VARIANTS)]
        pos, _ = random_position(rng, rules, suits=4, ranks=12, hand_size=5, players=(2, 8),
                                 upcard=i % 2 == 0, tricks_first=i % 3)
        me = pos.seats.index(pos.me)
        for deal in _deals(pos, me):
            if deal is None:
                continue
            for k in range(1, pos.hand.bit_count() + 1):
                for which, policy in enumerate(POLICIES):
                    want = _best(deal, pos, me, k, rules, policy)
                    assert cinch._versus(deal, pos, me, k, rules, which) == want, (pos, deal, k, which)
                    compared += 1
                    tricks, _ = cinch._search.versus_policy(
                        cinch._seen(deal, pos, me), me, pos.trump, pos.trick, k, *cinch._duties(rules), which, 2)
                    assert tricks in (-1, want), (pos, deal, k, which)
                    spent += tricks == -1
    assert compared >= 3000 and spent >= 100, (compared, spent)


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
