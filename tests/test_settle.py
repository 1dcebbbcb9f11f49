"""Settlement (docs/rules.md, settling the pot) and its toggles."""

from __future__ import annotations

import itertools

from booray_audit.rules.profiles import profile, with_toggle
from booray_audit.rules.settle import Chain, Claims, Outcome

from .conftest import reports

STD = profile("standard")


def rules(**toggles):
    r = STD
    for k, v in toggles.items():
        r = with_toggle(r, k.replace("_", "-"), v)
    return r


def hand(number, tricks, dealt=("A", "B", "C", "D"), violators=(), **kw):
    active = tuple(tricks)
    return Outcome(number, dealt, active, dict(tricks), frozenset(violators), **kw)


def test_worked_example_of_section_6_6():
    chain = Chain(0)
    s1 = chain.settle(hand(1, {"A": 3, "B": 2, "C": 0}), STD, Claims())
    assert (s1.pot, s1.winner, s1.carry) == (4, "A", 4)
    assert s1.net == {"A": 3, "B": -1, "C": -5, "D": -1}
    s2 = chain.settle(hand(2, {"A": 1, "B": 1, "C": 1, "D": 2}), STD, Claims())
    assert s2.antes == {"A": 1, "B": 1, "D": 1} and s2.pot == 7


def test_split_pot_carries_and_exempts_the_tied_leaders():
    chain = Chain(0)
    s = chain.settle(hand(1, {"A": 2, "B": 2, "C": 1}), STD, Claims())
    assert (s.winner, s.carry) == (None, 4)
    s = chain.settle(hand(2, {"A": 3, "B": 1, "C": 1}), STD, Claims())
    assert set(s.antes) == {"C", "D"} and s.pot == 6


def test_limit_caps_each_penalty():
    chain = Chain(20)
    s = chain.settle(hand(1, {"A": 5, "B": 0, "C": 0}), rules(limit="3"), Claims())
    assert s.penalties == {"B": 3, "C": 3} and s.carry == 6


def test_limit_caps_win():
    s = Chain(20).settle(hand(1, {"A": 5, "B": 0}), rules(limit="10", limit_caps_win="yes"), Claims())
    assert (s.won, s.carry) == (10, 24 - 10 + 10)


def test_double_ante_and_no_exemptions():
    chain = Chain(0)
    r = rules(double_ante="yes")
    s = chain.settle(hand(1, {"A": 3, "B": 2, "C": 0}), r, Claims())
    assert s.pot == 4 + 3  # every dealt player antes, the three who play ante twice
    s = chain.settle(hand(2, {"A": 3, "B": 2, "C": 0}), r, Claims())
    assert s.antes["C"] == 2


def test_renege_penalty_and_forfeit():
    chain = Chain(0)
    s = chain.settle(hand(1, {"A": 3, "B": 2, "C": 0}, violators={"A"}), STD, Claims())
    assert s.winner is None and s.penalties == {"A": 4, "C": 4} and s.carry == 12
    r = rules(renege_penalty="none", renege_forfeits="no")
    s = Chain(0).settle(hand(1, {"A": 3, "B": 2, "C": 0}, violators={"A"}), r, Claims())
    assert s.winner == "A" and s.penalties == {"C": 4}


def test_one_penalty_per_player():
    s = Chain(0).settle(hand(1, {"A": 5, "B": 0}, violators={"B"}), STD, Claims())
    assert s.penalties == {"B": 4}


def test_walkover_and_all_pass():
    s = Chain(0).settle(Outcome(1, ("A", "B", "C"), ("C",), None, walkover="C"), STD, Claims())
    assert (s.winner, s.net, s.carry) == ("C", {"A": -1, "B": -1, "C": 2}, 0)
    s = Chain(0).settle(Outcome(1, ("A", "B", "C"), (), None, all_passed=True), STD, Claims())
    assert (s.winner, s.carry) == (None, 3)


def test_four_card_game():
    text = (CORPUS / "13-four-card.bhh").read_text()
    h = reports(text)[0]
    assert h.settlement.winner == "Cal" and h.settlement.carry == 0


def test_gap_restarts_the_chain_from_a_pot_claim():
    chain = Chain(0)
    chain.settle(hand(1, {"A": 3, "B": 2}, dealt=("A", "B")), STD, Claims())
    s = chain.settle(hand(5, {"A": 3, "B": 2}, dealt=("A", "B")), STD, Claims())
    assert s.pot is None and s.net is None
    s = Chain(0).settle(hand(7, {"A": 3, "B": 2}, dealt=("A", "B")), STD, Claims(pot=14))
    assert s.pot == 14 and s.carry == 0


def test_claims_are_checked():
    s = Chain(0).settle(hand(1, {"A": 3, "B": 2, "C": 0}), STD,
                        Claims(pot=5, ante="none", tricks=(("A", 2),), net=(("A", 4), ("B", 0))))  # the Pot line makes the pot 5
    kinds = sorted((k, p) for k, p, _, _ in s.findings)
    assert ("wrong-trick-count", "A") in kinds and ("wrong-settlement", "B") in kinds
    assert ("wrong-settlement", "A") not in kinds
    assert kinds.count(("wrong-ante", "A")) == 1
    # the first hand's Pot line is the starting fact, not a claim
    assert not any(k == "wrong-pot" for k, _ in kinds)


def test_wrong_pot_after_the_first_hand():
    chain = Chain(0)
    chain.settle(hand(1, {"A": 2, "B": 2, "C": 1}), STD, Claims())
    s = chain.settle(hand(2, {"A": 3, "B": 2, "C": 1}), STD, Claims(pot=9))
    assert [k for k, *_ in s.findings] == ["wrong-pot"]


from .conftest import CORPUS  # noqa: E402


def _fewest(nets: list[int]) -> int:
    """Brute force: the fewest payments that square ``nets`` (each zero-sum group of g
    parties takes g - 1; try every partition)."""
    live = [n for n in nets if n]
    if not live:
        return 0
    first, rest = live[0], live[1:]
    best = len(live) - 1
    for size in range(1, len(rest) + 1):
        for combo in itertools.combinations(range(len(rest)), size - 1):
            group = [first] + [rest[i] for i in combo]
            if sum(group) == 0:
                others = [rest[i] for i in range(len(rest)) if i not in combo]
                best = min(best, len(group) - 1 + _fewest(others))
    return best


def test_settling_up_takes_the_fewest_payments_and_squares_every_net():
    import random

    from booray_audit.rules.settle import transfers
    rng = random.Random(5)
    for _ in range(400):
        values = [rng.choice([-6, -4, -3, -2, 2, 3, 4, 6, rng.randint(-30, 30)]) for _ in range(rng.randint(1, 7))]
        values.append(-sum(values))
        nets = {f"p{i}": v for i, v in enumerate(values)}
        paid = transfers(nets)
        balance = dict.fromkeys(nets, 0)
        for payer, payee, chips in paid:
            assert chips > 0 and payer != payee
            balance[payer] -= chips
            balance[payee] += chips
        assert balance == nets
        assert len(paid) == _fewest(values), (nets, paid)


# -- other ways the tricks may have gone (tricks only the next leads give winners) --------

def test_the_claims_pick_another_way_the_tricks_may_have_gone():
    """The next leads give A 3 tricks; the table counted A 2, B 2 (a trick the cards leave
    open, written from its winner): settled as the table counted, with no finding."""
    o = hand(1, {"A": 3, "B": 1, "C": 1}, leads=({"A": 2, "B": 2, "C": 1}, {"A": 1, "B": 1, "C": 3}))
    s = Chain(0).settle(o, STD, Claims(tricks=(("A", 2), ("B", 2), ("C", 1))))
    assert (s.findings, s.winner, s.carry) == ([], None, 4)
    assert s.reading.startswith("tricks as the table's claims count them: A 2, B 2, C 1")
    s = Chain(0).settle(o, STD, Claims(net=(("A", -1), ("B", -1), ("C", -1), ("D", -1))))
    assert (s.findings, s.winner, s.carry) == ([], None, 4)


def test_without_claims_or_with_claims_that_fit_the_tricks_there_is_no_other_way():
    o = hand(1, {"A": 3, "B": 1, "C": 1}, leads=({"A": 2, "B": 2, "C": 1},))
    for claims in (Claims(), Claims(tricks=(("A", 3), ("B", 1), ("C", 1)))):
        s = Chain(0).settle(o, STD, claims)
        assert (s.findings, s.winner, s.reading) == ([], "A", "")


def test_claims_no_way_fits_are_judged_by_the_tricks():
    o = hand(1, {"A": 3, "B": 1, "C": 1}, leads=({"A": 2, "B": 2, "C": 1},))
    s = Chain(0).settle(o, STD, Claims(tricks=(("A", 1), ("B", 1), ("C", 3))))
    assert [(k, p) for k, p, *_ in s.findings] == [("wrong-trick-count", "A"), ("wrong-trick-count", "C")]
    assert s.winner == "A"


def test_ways_too_many_to_list_or_several_that_settle_otherwise_leave_the_hand_unknown():
    chain = Chain(0)
    s = chain.settle(hand(1, {"A": 3, "B": 1, "C": 1}, leads=None), STD, Claims(tricks=(("A", 2), ("B", 2), ("C", 1))))
    assert (s.findings, s.net, s.carry) == ([], None, None) and "is not known" in s.unknown
    assert chain.carry is None  # the next hand's pot is not known either
    # the next leads give B the pot; the table's nets for B and D fit A or C taking it
    o = hand(1, {"A": 1, "B": 3, "C": 1}, leads=({"A": 3, "B": 1, "C": 1}, {"A": 1, "B": 1, "C": 3}))
    s = Chain(0).settle(o, STD, Claims(net=(("B", -1), ("D", -1))))
    assert (s.findings, s.net, s.winner) == ([], None, None)


# Cal left the table after hand 1, and `Seats` still names him; the table's `Net` for
# hand 2 leaves him out.  Bob, bourré in hand 1, owes no ante.
CAL_LEFT = """[Seats "Ann Bob Cal"]
[Ante "1"]
Hand 1
Dealer Cal
Trump s
Ann play
Bob play
Cal play
Trick 1: Ann As, Bob 2s, Cal 3s
Trick 2: Ann Ks, Bob 4s, Cal 5s
Trick 3: Ann Qs, Bob 6s, Cal 7s
Trick 4: Ann 2h, Bob 3h, Cal 4h
Trick 5: Cal 4d, Ann 2d, Bob 3d
Tricks Ann 3 Bob 0 Cal 2
Net Ann +2 Bob -4 Cal -1

Hand 2
Dealer Ann
Trump h
Bob play
Ann play
Trick 1: Bob Ah, Ann 2h
Trick 2: Bob Kh, Ann 3h
Trick 3: Bob Qh, Ann 4h
Trick 4: Bob 2c, Ann 3c
Trick 5: Ann 3d, Bob 2d
Tricks Bob 3 Ann 2
{net}"""


def test_a_seated_player_the_hand_and_its_net_never_name_may_have_left_the_table():
    _, h = reports(CAL_LEFT.format(net="Net Bob +4 Ann -1"))
    # before: Cal anted as seated, a pot of 5: "the table settled Bob at +4; the rules give +5"
    assert h.findings == [] and h.settlement.net == {"Bob": 4, "Ann": -1}
    # the Net naming him: he passed, his line missing, and anted
    _, h = reports(CAL_LEFT.format(net="Net Bob +5 Ann -1 Cal -1"))
    assert h.findings == [] and h.settlement.net == {"Bob": 5, "Ann": -1, "Cal": -1}
    # no Net: `Seats` says he was dealt in
    _, h = reports(CAL_LEFT.format(net=""))
    assert h.findings == [] and h.settlement.net == {"Bob": 5, "Ann": -1, "Cal": -1}
    # a Net that fits neither is still wrong
    _, h = reports(CAL_LEFT.format(net="Net Bob +7 Ann -1"))
    assert [(f.kind, f.player) for f in h.findings] == [("wrong-settlement", "Bob")]
