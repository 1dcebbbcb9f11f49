"""Trick lines written out of the order of their numbers (`Trick 3:` above `Trick 2:`):
the audit accuses only where both orders prove it, and a settlement that hangs on an
undecidable play is not called wrong."""

from __future__ import annotations

import random
import re

from booray_audit.generate import generate_text

from .conftest import reports
from .test_generated import audited
from .typed import swap_lines

# Ann wins the first four tricks.  Trick 2 (the As) is written below trick 3 (the Ks):
# read in the written order, Bob played the 8h on the Ks while still holding the 5s he
# plays on the As; read by the numbers, he had played the 5s already and was void.
SWAPPED = """[Seats "Ann Bob Cal"]
[Ante "1"]
Hand 1
Dealer Cal
Deal Ann Ah As Ks Qs 2d
Deal Bob 7h 5s 8h 9h 3d
Deal Cal Kh Jd Td 9d 6c
Up 6c
Ann play
Bob play
Cal play 6c -> 4h
Trick 1: Ann Ah, Bob 7h, Cal 4h
Trick 3: Ann Ks, Bob 8h, Cal Td
Trick 2: Ann As, Bob 5s, Cal Jd
Trick 4: Ann Qs, Bob 9h, Cal 9d
Trick 5: Ann 2d, Bob 3d, Cal Kh
Dispute Bob renege 3
"""
# what the table paid if Bob broke no rule (Cal went bourré), and if he did
INNOCENT = "Net Ann +2 Bob -1 Cal -4\n"
GUILTY = "Net Ann +2 Bob -4 Cal -4\n"
NEXT = """
Hand 2
Dealer Ann
Deal Bob 2h 3h 4h 5h 6h
"""


def only(text):
    [h] = reports(text)
    return h


def test_a_play_judged_by_an_order_the_record_contradicts_is_undecidable():
    h = only(SWAPPED)
    assert [f for f in h.findings if f.cls == "play"] == []
    assert [(u.kind, u.trick, u.player) for u in h.replay.undecidable] == [("renege", 3, "Bob")]
    assert "out of the order of their numbers" in h.replay.undecidable[0].reason
    assert [(r.ruling, r.trick) for r in h.rulings] == [("undecidable", 3)]
    # the notes say which tricks are out of place; they accuse nobody
    assert {(f.kind, f.player) for f in h.findings} == {("out-of-turn", None)}


def test_the_same_lines_numbered_in_the_order_written_prove_the_renege():
    """The control: with the numbers following the lines, the record says Bob played the
    8h on the Ks holding the 5s, and the audit says so."""
    text = SWAPPED.replace("Trick 3:", "Trick X:").replace("Trick 2:", "Trick 3:").replace("Trick X:", "Trick 2:")
    h = only(text)
    assert [(f.kind, f.trick, f.player) for f in h.findings] == [("renege", 2, "Bob")]
    assert "held 5s" in h.findings[0].evidence


def test_a_violation_both_orders_prove_stands():
    """Bob keeps a spade (the 6s) for trick 4: playing the 9h on the Ks is a renege
    whichever of tricks 2 and 3 came first."""
    text = (SWAPPED.replace("Deal Bob 7h 5s 8h 9h 3d", "Deal Bob 7h 5s 6s 9h 3d")
            .replace("Ann Ks, Bob 8h", "Ann Ks, Bob 9h").replace("Ann Qs, Bob 9h", "Ann Qs, Bob 6s"))
    h = only(text)
    assert [(f.kind, f.trick, f.player, f.evidence) for f in h.findings if f.cls == "play"] == [
        ("renege", 3, "Bob", "held 6s: Bob was dealt it")]
    assert h.replay.undecidable == []
    assert [r.ruling for r in h.rulings] == ["upheld"]


def test_the_tables_settlement_decides_an_undecidable_penalty_when_it_fits_one_way():
    """Bob owes a renege penalty only if he reneged, which the record cannot show: the
    table's nets fit the hand settled with or without it, and the chain goes on from
    the one that fits."""
    for net, bob, carry in ((INNOCENT, -1, 3), (GUILTY, -4, 6)):
        h1, h2 = reports(SWAPPED + net + NEXT)
        assert [f for f in h1.findings if f.cls == "claim"] == []
        assert h1.settlement.net["Bob"] == bob and h1.settlement.carry == carry
        assert h2.settlement.pot is not None


def test_a_settlement_that_fits_no_way_is_wrong_and_says_both():
    h = only(SWAPPED + "Net Ann +2 Bob -2 Cal -4\n")
    [f] = [f for f in h.findings if f.cls == "claim"]
    assert (f.kind, f.player) == ("wrong-settlement", "Bob")
    assert "the rules give -4 or -1" in f.message and "undecidable" in f.message
    assert h.settlement.net is None


def test_without_the_tables_nets_the_settlement_is_unknown_and_says_why():
    h1, h2 = reports(SWAPPED + NEXT)
    assert h1.settlement.net is None and "Bob" in h1.settlement.unknown
    assert [f for f in h1.findings if f.cls == "claim"] == []
    assert h2.settlement.pot is None  # what the hand carried on is not known


def _swapped(text: str, seed: int) -> str:
    rng = random.Random(seed)
    hands = re.split(r"\n(?=Hand )", text)
    return "\n".join(hands[:1] + ["\n".join(swap_lines(h.split("\n"), rng)) for h in hands[1:]])


def test_generated_hands_with_trick_lines_swapped_accuse_only_the_injected():
    """Every hand with two trick lines in each other's place: a legal game stays clean
    (plays and the table's claims), and an injected violation is either found or left
    undecidable, never turned into another."""
    text, _ = generate_text(80, players=(3, 7), seed=41)
    bad = [(h.replay.number, f.kind, f.player) for _, h in audited(_swapped(text, 1))
           for f in h.findings if f.cls != "record"]
    assert bad == []
    text, injected = generate_text(80, players=(3, 7), seed=42, violations=0.6)
    want = {(i.session, i.hand, i.trick, i.player, i.kind) for i in injected}
    hands = list(audited(_swapped(text, 2)))
    got = {(s, f.hand, f.trick, f.player, f.kind) for s, h in hands for f in h.findings if f.cls == "play"}
    open_ = {(s, u.hand, u.trick, u.player, u.kind) for s, h in hands for u in h.replay.undecidable}
    assert got <= want and want - got <= open_
    # about half are proven whichever order is right (19 of 39 here); the others had
    # their proof card played in one of the two swapped tricks
    assert len(got) > 10 and len(want) > 30
