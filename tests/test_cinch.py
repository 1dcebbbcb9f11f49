"""The cinch (docs/rules.md, the cinch): worked examples, the top-trumps count, and the exact
solver against a brute-force oracle on reduced decks — both implementations of the
search (Python, the reference, and the compiled one where it is built) on every
position."""

from __future__ import annotations

import random

import pytest

from booray_audit.cards import FULL_DECK, mask_of, parse_card
from booray_audit.cinch import judge as cinch
from booray_audit.cinch.judge import judge
from booray_audit.cinch.position import Position, top_trumps
from booray_audit.cinch.solver import Solver
from booray_audit.rules.profiles import profile, with_toggle

from .oracle import VARIANTS, oracle_value, random_position

STD = profile("standard")
IMPLEMENTATIONS = (False, True) if cinch._search else (False,)  # compiled?


def solves(rules, pos, k, max_nodes=cinch.NODES) -> bool:
    """The answer of every implementation of the search, which must agree."""
    answers = {c: Solver(rules, max_nodes, compiled=c).solve(pos, k) for c in IMPLEMENTATIONS}
    assert len(set(answers.values())) == 1, (pos, k, answers)
    return answers[False]


def view(hand: str, played: str = "", tricks_left: int | None = None, players: int = 4):
    cards = [parse_card(c) for c in hand.split()]
    mine = mask_of(cards)
    gone = mask_of(parse_card(c) for c in played.split())
    n = tricks_left or len(cards)
    counts = (0,) + (n,) * (players - 1)
    return Position(mine, FULL_DECK & ~mine & ~gone, 0, tuple(f"p{i}" for i in range(players)), "p0",
                    counts, (0,) * players, ())


@pytest.mark.parametrize("hand,won", [
    ("As 2h 3h", 2),             # two tricks won and holding the A♠
    ("As Ks 2h 3h", 1),          # one trick won, A♠ K♠
    ("As Qs Js 2h", 1),          # one trick won, A♠ Q♠ J♠, K♠ unseen: it captures only one
    ("As Ks Qs 2h 3h", 0),       # a cinch from the deal
])
def test_worked_examples_are_cinches(hand, won):
    assert judge(view(hand), won, STD)


@pytest.mark.parametrize("hand,won", [("As Qs 2h 3h", 1), ("Ks Qs Js 2h 3h", 0), ("As 2h 3h 4h", 1)])
def test_near_misses_are_not(hand, won):
    assert not judge(view(hand), won, STD)


def test_top_trumps_is_a_maximum_matching():
    hand = mask_of(parse_card(c) for c in "As Qs Js 9s".split())
    unseen = mask_of(parse_card(c) for c in "Ks Ts".split())
    # K captures one of Q/J, T captures the 9: A and one of Q/J stand
    assert top_trumps(hand, unseen, 0) == 2


def test_top_trumps_toggle_is_the_simple_count():
    rules = with_toggle(STD, "cinch", "top-trumps")
    assert judge(view("As Qs Js 2h"), 1, rules)
    assert not judge(view("As Qs 2h 3h"), 1, rules)
    assert judge(view("As Qs 2h 3h"), 1, with_toggle(STD, "cinch", "off")) is None


def test_a_known_void_in_trump_makes_lower_trumps_sure():
    # every opponent showed it holds no trump: the 2♠ and 3♠ are sure tricks
    pos = view("2s 3s 4h", players=3)
    pos = Position(pos.hand, pos.unseen, 0, pos.seats, pos.me, pos.counts,
                   (0, FULL_DECK & 0xFFFF, FULL_DECK & 0xFFFF), ())
    assert judge(pos, 1, STD)
    assert not judge(view("2s 3s 4h", players=3), 1, STD)


def _agree(seed: int, count: int, rules, ranks: int, answer=None, solver=None):
    """``answer(solver(rules), pos, k)`` against the oracle's on ``count`` random
    positions, for every need k; by default every implementation's full solve."""
    rng = random.Random(seed)
    checked = 0
    for _ in range(count):
        pos, facts = random_position(rng, rules, ranks=ranks)
        value = oracle_value(facts, rules)
        for k in range(1, pos.hand.bit_count() + 1):
            got = solves(rules, pos, k) if answer is None else answer(solver(rules), pos, k)
            assert got == (value >= k), (seed, pos, k, value)
        checked += 1
    return checked


# 3,000 random reduced-deck positions (3 suits of 4 ranks, 2-4 players, 3-card hands)
# under four trick-rule variants; `python bench/oracle.py` runs longer with other seeds.
@pytest.mark.parametrize("chunk", range(10))
def test_solver_agrees_with_the_oracle(chunk):
    assert _agree(1000 + chunk, 300, VARIANTS[chunk % 4], ranks=4) == 300


def test_solver_agrees_with_the_oracle_on_a_wider_deck():
    assert _agree(77, 60, STD, ranks=5) == 60


def test_cashing_top_trumps_draws_the_others():
    # Q T 5 2 of trump with the A and K gone; J 8 4 out. Leading the Q makes whoever holds
    # trumps follow, so at most two captors remain for the T 5 2: two sure tricks.
    hand = mask_of(parse_card(c) for c in "Qs Ts 5s 2s".split())
    gone = mask_of(parse_card(c) for c in "As Ks 3s 6s 7s 9s".split())
    pos = Position(hand, FULL_DECK & ~hand & ~gone, 0, ("p0", "p1", "p2"), "p0", (0, 4, 4), (0, 0, 0), ())
    assert judge(pos, 1, STD)          # 1 won + 2 sure = 3
    assert not judge(pos, 0, STD)


def test_the_on_lead_bound_is_sound_where_it_helps():
    """Wherever the on-lead bound beats the plain top-trumps count, the oracle agrees."""
    from booray_audit.cards import suit_mask
    rng = random.Random(42)
    checked = 0
    for _ in range(12000):
        pos, facts = random_position(rng, STD, ranks=4)
        if pos.trick:
            continue
        s = Solver(STD)
        s.trump, s.me = pos.trump, pos.seats.index(pos.me)
        bound = s._lower(pos.hand, pos.unseen, pos.counts, pos.forbidden, ())
        captors = 0
        for j, n in enumerate(pos.counts):
            if n:
                captors |= pos.unseen & suit_mask(pos.trump) & ~pos.forbidden[j]
        if bound > top_trumps(pos.hand, captors, pos.trump):
            assert oracle_value(facts, STD) >= bound
            checked += 1
    assert checked >= 15


def _cards(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split())


def test_an_opponent_keeps_its_captor_under_a_boss_trump_lead():
    """Trump diamonds, one trick won, Q♦ T♦ 2♠ T♥ with the J♦ unseen: no cinch.  Under
    the Q♦ lead the J♦'s holder follows low and keeps it for the T♦; a void in trump would
    give it up.  The restricted adversary finds that in a few nodes (this position used
    to exhaust the search's budget)."""
    hand = _cards("2s Th Td Qd")
    gone = _cards("4h 5d Kd Ad 2c 4c 5c")
    clubs = _cards("3c 6c 7c 8c 9c Tc Jc Qc Kc Ac")
    pos = Position(hand, FULL_DECK & ~hand & ~gone, 2, ("Ivan", "Victor", "Carol", "Alice"), "Alice",
                   (4, 4, 4, 0), (0, clubs, clubs, 0), ())
    solver = Solver(STD, compiled=False)
    assert judge(pos, 1, STD, solver) is None
    assert solver.decided_by == "restricted adversary" and solver.nodes < 500
    assert not solves(STD, pos, 2)


def test_a_trick_p_wins_outright_counts_before_the_search():
    """Trump clubs, every other club gone; an opponent led the 4♥ and P (void in hearts)
    holds 2♣ A♠ with no spade above: the 2♣ takes this trick, then the A♠ leads to win."""
    hand = _cards("As 2c")
    gone = _cards("3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 4h")
    pos = Position(hand, FULL_DECK & ~hand & ~gone, 3, ("p0", "p1", "p2", "p3"), "p3",
                   (1, 2, 2, 0), (0, 0, 0, 0), ((0, parse_card("4h")),))
    solver = Solver(STD, compiled=False)  # the counting bound, asked first in Python
    assert judge(pos, 1, STD, solver)
    assert solver.nodes == 0
    # the compiled judge asks it only of a cinch, for the count its reason gives
    assert judge(pos, 1, STD, Solver(STD)) == judge(pos, 1, STD, solver)


def test_the_relaxed_game_never_shows_a_cinch_the_oracle_denies():
    """Blank ranks in the suits P lacks only help the adversary: wherever P makes k tricks
    in the relaxed game, the oracle agrees."""
    rng = random.Random(9)
    checked = 0
    for i in range(1500):
        rules = (STD, with_toggle(STD, "must-beat", "previous"))[i % 2]
        # a third with a card one opponent is known to hold: in a blank suit it stays a
        # card of its own (as the lowest stood for it, the holder could never play it)
        pos, facts = random_position(rng, rules, ranks=4, upcard=i % 3 == 0)
        value = None
        for k in range(1, pos.hand.bit_count() + 1):
            if Solver(rules, max_nodes=10**6).search(pos, k, relaxed=True):
                value = oracle_value(facts, rules) if value is None else value
                assert value >= k, (pos, k, value)
                checked += 1
    assert checked >= 300


def test_the_exact_search_alone_agrees_with_the_oracle():
    """Steps 2 and 3 off: the full search (its memo keys packed and summarised inside a
    trick) gives the oracle's answer by itself."""
    for i, rules in enumerate(VARIANTS):
        assert _agree(5 + i, 100, rules, 4, lambda s, pos, k: s.search(pos, k),
                      lambda rules: Solver(rules, None)) == 100


def _forgetful(rules) -> Solver:
    s = Solver(rules, None)
    s.MEMO_ENTRIES, s.TRIM_MASK = 4, 3
    return s


def test_a_search_that_forgets_its_memo_gives_the_same_answers():
    """``--cinch-nodes 0`` bounds memory by dropping the memos now and then."""
    assert _agree(8, 150, STD, 4, lambda s, pos, k: s.solve(pos, k), _forgetful) == 150


def test_positions_differing_only_in_which_low_card_fell_meet_in_the_memo():
    from booray_audit.cinch.canon import _canon
    hand = _cards("Ah 2h Ks")
    gone_a, gone_b = _cards("3d 9c"), _cards("7d 5c")  # a low diamond and club, either way
    a = _canon(hand, FULL_DECK & ~hand & ~gone_a, (0, _cards("Qd Jd")))
    b = _canon(hand, FULL_DECK & ~hand & ~gone_b, (0, _cards("Qd Jd")))
    assert a == b
    assert a[0] == hand  # nothing fell in P's suits: P's cards stay where they are
    c = _canon(hand, FULL_DECK & ~hand & ~_cards("Qd 9c"), (0, _cards("Jd")))
    assert c != a  # a diamond the constraint names is not a low card like the others


def test_a_ruff_of_a_boss_that_spends_the_last_trump_leaves_p_the_rest():
    """Trump clubs, the 7♣ the only trump out; P on lead with A♦ K♦ 5♣ needs two tricks.
    If the A♦ is ruffed, the ruff spent the 7♣: the 5♣ and the K♦ then both win (P trumps
    or follows with the boss, then keeps the lead); if not, the K♦ follows.  A cinch,
    shown by the on-lead bound alone (this 7-player position used to exhaust the search)."""
    hand = _cards("Ad Kd 5c")
    unseen = _cards("7c Qd Jd Td 8d 7d 6d 5d 4d 3d 2d Kh Qh Th 9h 8h 7h 6h 5h 4h 3h 2h "
                    "As Ks Js Ts 8s 7s 6s 5s 4s 2s")
    seven = _cards("7c")
    pos = Position(hand, unseen, 3, ("Bob", "Carol", "Frank", "Dave", "Walter", "Heidi", "Mallory"),
                   "Heidi", (3, 3, 3, 3, 3, 0, 3), (0, seven, 0, seven, 0, 0, 0), ())
    solver = Solver(STD, compiled=False)  # the counting bound, asked first in Python
    assert judge(pos, 1, STD, solver)
    assert solver.nodes == 0
    # the compiled judge asks it only of a cinch, for the count its reason gives
    assert judge(pos, 1, STD, Solver(STD)) == judge(pos, 1, STD, solver)
    # with a second trump out (the 6♣) the ruff no longer leaves P the rest
    two = Position(hand, unseen | _cards("6c"), 3, pos.seats, pos.me, pos.counts, pos.forbidden, ())
    assert not judge(two, 1, STD, Solver(STD, None))


def test_long_runs_of_unseen_cards_agree_with_the_oracle():
    """The adversary tries only the lowest and highest card of a run of unseen cards that
    nothing separates (``_choices``).  Two suits of 8-10 ranks leave runs of 3 and more;
    3 to 5 players; every answer as the oracle's."""
    from booray_audit.cinch.canon import _choices
    rng = random.Random(31)
    runs = 0
    for players, hand_size, ranks, after, count in ((3, 4, 8, 1, 8), (3, 4, 10, 2, 16),
                                                    (4, 3, 9, 1, 5), (5, 3, 8, 1, 3)):
        for _ in range(count):
            rules = VARIANTS[rng.randrange(len(VARIANTS))]
            pos, facts = random_position(rng, rules, suits=2, ranks=ranks, hand_size=hand_size,
                                         players=(players, players), tricks_first=after)
            for seat, n in enumerate(pos.counts):
                pool = pos.unseen & ~pos.forbidden[seat]
                if n and len(_choices(pool, pos.hand, pos.unseen, pos.forbidden, pos.counts, seat)) < pool.bit_count():
                    runs += 1
                    break
            value = oracle_value(facts, rules)
            for k in range(1, pos.hand.bit_count() + 1):
                assert solves(rules, pos, k) == (value >= k), (pos, k, value)
    assert runs >= 15  # the reduction was at work


def test_a_card_an_opponent_is_known_to_hold_agrees_with_the_oracle():
    """The up-card: everyone saw it, so its holder has it until it is played."""
    rng = random.Random(17)
    held = 0
    for i in range(300):
        rules = VARIANTS[i % len(VARIANTS)]
        pos, facts = random_position(rng, rules, ranks=4, upcard=True)
        held += any(pos.holds)
        value = oracle_value(facts, rules)
        for k in range(1, pos.hand.bit_count() + 1):
            assert solves(rules, pos, k) == (value >= k), (pos, k, value)
    assert held >= 50


def test_every_two_player_decision_of_a_small_deck_agrees_with_an_independent_solver():
    """Exhaustive: every deal of 2 suits of 4 ranks to two players of 3 cards (the second
    player's last card public, as the up-card is), every line of legal play, every
    decision: the solver and the brute-force oracle (which shares none of its
    reasoning) give the same answer for every need."""
    from .oracle import every_position
    checked = 0
    for pos, facts in every_position(STD):
        value = oracle_value(facts, STD)
        for k in range(1, pos.hand.bit_count() + 1):
            assert solves(STD, pos, k) == (value >= k), (pos, k, value)
        checked += 1
    assert checked > 20000
