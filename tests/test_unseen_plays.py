"""Cards played where the record does not show them: a `??`, a discard not named, a name
left out of a trick or misspelt, a trick left out, a seat-order trick a card short, a hand
that could not be read.  A card the record last showed in a player's hand may be gone by
then, so it proves nothing; each case here once accused an innocent player."""

from __future__ import annotations

from booray_audit.judge.findings import kind_class

from .conftest import findings, reports

# Bob's and Ivan's five cards are known, and both stood pat.
BOB_IVAN = """[Seats "Bob Ivan"]
Hand 1
Dealer Ivan
Deal Bob 3d 7h 5d 6c 2c
Deal Ivan 5s 8s 2h 7c 9h
Up 9h
Bob play
Ivan play
"""

# the 7h Bob led at trick 1 is written `??`
HIDDEN_LEAD = BOB_IVAN + """Trick 1: Bob {first}, Ivan 9h
Trick 2: Ivan 2h, Bob 2c
"""


def plays(text) -> list[tuple]:
    """The findings that are not record errors: plays and claims."""
    return [f for f in findings(text) if kind_class(f[0]) != "record"]


def test_a_card_played_unseen_may_be_the_one_the_deal_showed():
    assert plays(HIDDEN_LEAD.format(first="??")) == []
    # the same hand with the lead shown: Bob kept the 7h and threw a club on a heart lead
    assert plays(HIDDEN_LEAD.format(first="3d")) == [("renege", 2, "Bob")]


def test_a_discard_not_named_may_be_any_dealt_card():
    text = """[Seats "Bob Ivan"]
Hand 1
Dealer Ivan
Deal Bob 6c Ah 9h 8s Jd
Deal Ivan 2c 3c 4d 5d 7s
Up 7s
Bob play Jd 9h ?? -> As Qs Js
Ivan play
Trick 1: Bob Ah, Ivan 7s
Trick 2: Ivan 2c, Bob 8s
"""
    assert plays(text) == []  # the ?? was the 6c
    # the discards named: Bob kept the 6c and trumped a club lead
    assert ("renege", 2, "Bob") in plays(text.replace("Jd 9h ??", "Jd 9h 8s").replace("Bob 8s", "Bob Qs"))


THREE = """[Seats "Ann Bob Cat"]
Hand 1
Dealer Cat
Deal Bob 2h 3c 4c 5c 6c
Up 9s
Ann play
Bob play
Cat play
{one}
Trick 2: Ann Qh, Bob 3c, Cat Jh
"""


def test_a_player_left_out_of_a_trick_or_misspelt_may_have_played_any_card():
    assert plays(THREE.format(one="Trick 1: Ann Ah, Bob 2h, Cat Kh")) == []
    for typed in ("Trick 1: Ann Ah, Cat Kh", "Trick 1: Ann Ah, Bbo 2h, Cat Kh", "Trick 1: Ann Ah, Bob ??, Cat Kh"):
        out = findings(THREE.format(one=typed))
        assert plays(THREE.format(one=typed)) == [], (typed, out)
        assert out or "??" in typed  # the record error is still reported (a missing or unknown player)


GAP = BOB_IVAN + """Trick 1: Bob 3d, Ivan 9h
{two}Trick 3: Bob 5d, Ivan 5s
Trick 4: Bob 6c, Ivan 7c
Trick 5: Ivan 8s, Bob 2c
"""


def test_a_trick_left_out_hides_every_card_played_in_it():
    assert findings(GAP.format(two="Trick 2: Ivan 2h, Bob 7h\n")) == []
    # trick 2 left out: Ivan's 2h may be gone (no failed-trump), and nobody led out of turn;
    # one note says where the numbers depart from the places (not one for every trick after)
    assert findings(GAP.format(two="")) == [("out-of-turn", 3, None)]


def test_a_note_where_the_trick_numbers_depart_from_their_places():
    full = GAP.format(two="Trick 2: Ivan 2h, Bob 7h\n")
    two_gaps = full.replace("Trick 2: Ivan 2h, Bob 7h\n", "").replace("Trick 4: Bob 6c, Ivan 7c\n", "")
    notes = [f for f in findings(two_gaps) if f[0] == "out-of-turn"]
    assert notes == [("out-of-turn", 3, None), ("out-of-turn", 5, None)]
    twice = full.replace("Trick 3:", "Trick 2:").replace("Trick 4:", "Trick 3:").replace("Trick 5:", "Trick 4:")
    notes = [f for f in reports(twice)[0].findings if f.kind == "out-of-turn"]
    assert [(f.trick, f.message) for f in notes] == [(2, "the trick numbered 2 is trick 3 of the hand")]


def test_findings_and_plays_name_a_trick_by_its_written_number():
    """With trick 2 left out, Ivan's renege is at the trick written `Trick 4` (the third in
    the record), and so is everything the audit says or stores of it.  (Bob's trump wins
    trick 3 whoever led it, so Bob's lead of trick 4 is proven.)"""
    from booray_audit.report.explain import duties
    text = GAP.format(two="").replace("Trick 4: Bob 6c, Ivan 7c\nTrick 5: Ivan 8s, Bob 2c",
                                      "Trick 4: Bob 6c, Ivan 8s\nTrick 5: Bob 2c, Ivan 7c")
    text = text.replace("Trick 3: Bob 5d, Ivan 5s", "Trick 3: Bob 7h, Ivan 5s")
    text = text.replace("Deal Ivan 5s 8s 2h 7c 9h\n", "")  # only Ivan's later play shows the 7c
    [report] = reports(text)
    renege = [f for f in report.findings if f.kind == "renege"]
    assert [(f.trick, f.player, f.evidence) for f in renege] == [(4, "Ivan", "held 7c: Ivan played it at trick 5")]
    assert sorted({t for t, *_ in report.replay.plays}) == [1, 3, 4, 5]
    won = [(t, p) for t, p, _, won, _ in duties(report) if won]
    assert won == [(1, "Ivan"), (3, "Bob"), (4, "Bob"), (5, "Ivan")]


def test_a_seat_order_trick_a_card_short_says_whose_cards_only_for_the_leader():
    text = THREE.format(one="Trick 1: Ann: Ah Kh").replace("Trick 2: Ann Qh, Bob 3c, Cat Jh",
                                                               "Trick 2: Ann Qh, Bob 3c, Cat Jh\nTrick 3: Ann 2d, Bob 4c, Cat 3d")
    hand = reports(text)[0]
    assert hand.hand.events[-2].loose is False and [e for e in hand.hand.events if hasattr(e, "loose")][0].loose
    # read clockwise, Bob played the Kh and Cat nothing; but the card left out may be Bob's
    assert plays(text) == []


def test_a_trump_led_by_suit_only_may_be_the_highest():
    text = """[Seats "Ann Bob"]
Hand 1
Dealer Bob
Deal Ann As Ks Qs 2s 3h
Up 9s
Ann play
Bob play 5
Trick 1: Ann {lead}, Bob 5d
"""
    assert plays(text.format(lead="?s")) == []
    assert plays(text.format(lead="2s")) == [("cinch-lead", 1, "Ann")]


def test_an_unreadable_hand_leaves_the_next_pot_unknown():
    text = """[Seats "Ann Bob"]
[Ante "1"]
Hand 1
Dealer Bob
Deal Ann As Ks Qs Js Ts
Up 2s
Ann play
Bob play
Trick 1: Ann As, Bob 2s
Trick 2: Ann Ks, Bob 3c
Trick 3: Ann Qs, Bob 4c
Trick 4: Ann Js, Bob 5c
Trick 5: Ann Ts, Bob 6c
Net Ann +1 Bob -6

Hand 2
Dealer Ann
Up 9h
Ann play
Bob play
Trick 1: Bob Ah, Ann 2h
Trik 2: Bob Kh, Ann 3h

Hand 3
Ann play
Bob play
Trick 1: Ann Ac, Bob 2c
Trick 2: Ann Kc, Bob 3c
Trick 3: Ann Qc, Bob 4c
Trick 4: Ann Jc, Bob 5c
Trick 5: Ann Tc, Bob 6c
Net Ann +99 Bob -1
"""
    hands = reports(text)
    assert [h.replay.number for h in hands] == [1, 3]
    three = hands[1]
    assert three.settlement.pot is None and three.findings == []  # hand 2 carried an unknown pot
    assert three.replay.dealer is None  # who dealt hand 3 follows from hand 2, which was not read


# -- records that contradict themselves: the contradiction is reported, nobody accused --

TYPO = """[Seats "Bob Ivan Rupert"]
Hand 1
Dealer Rupert
Deal Bob 7c Td {card} 3d Ks
Deal Ivan As 2s 3c 6s 2d
Up 4s
Bob play 3d -> ??
Ivan play 3c 2d -> ?? ??
Rupert play 3
Trick 1: Bob Ks, Ivan As, Rupert 4s
Trick 2: Ivan Tc, Rupert Qc, Bob 7c
Trick 3: Rupert 9s, Bob Ah, Ivan 6s
Trick 4: Rupert 4h, Bob 8h, Ivan 3h
Trick 5: Bob Td, Ivan 2s, Rupert 9h
"""


def test_a_dealt_card_kept_but_never_played_is_a_record_error_not_proof():
    # the deal says Ac where Bob had the Ah: he kept the Ac, yet played five other cards
    assert findings(TYPO.format(card="Ac")) == [("not-held", None, "Bob")]
    assert findings(TYPO.format(card="Ah")) == []


def test_discards_from_outside_the_dealt_cards_beyond_the_unnamed_ones_are_an_error():
    text = """[Seats "Eve Ann"]
Hand 1
Dealer Eve
Deal Eve 4c 6s 3d 7h ??
Up 9d
Ann play 2
Eve play Ac 7h 6s 4h -> ?? ?? ?? ??
Trick 1: Ann Tc, Eve 7d
"""
    assert findings(text) == [("not-held", None, "Eve")]  # not a renege "holding the 4c"


def test_a_suit_only_play_of_a_suit_the_known_hand_lacks_is_an_error():
    text = """[Seats "Judy Ann"]
Hand 1
Dealer Ann
Deal Judy Td Th 6c 2h 2d
Up 9s
Judy play 6c 2h -> 6s Qs
Ann play 3
Trick 1: Judy ?c, Ann 3c
Trick 2: Judy 2d, Ann 4d
Trick 3: Judy 6s, Ann Ah
"""
    assert ("not-held", None, "Judy") in findings(text)
    assert plays(text) == []


def test_a_card_the_record_puts_with_two_players_pins_no_suit_only_card():
    # the 5h is dealt to Rupert and to Sybil: Rupert's two ?h need not be his Qh twice
    text = """Hand 1
Dealer Frank
Deal Rupert Qh Qc 5h Js 7s
Deal Sybil 7h 9h 5h As Td
Deal Frank Kd 4s 9d Jh 4h
Up 4h
Rupert play Qc Js 7s -> 8d 5s Kc
Sybil play Td -> Ad
Frank play 9d 4s -> 2s 2h
Trick 1: Rupert ?c, Sybil 9h, Frank Jh
Trick 2: Frank 2h, Rupert ?h, Sybil ?h
Trick 3: Rupert ?h, Sybil 7h, Frank 4h
Trick 4: Sybil As, Frank ?s, Rupert 5s
Trick 5: Sybil Ad, Frank Kd, Rupert ?d
Tricks Frank 1 Rupert 1 Sybil 3
"""
    got = [(f.kind, f.message) for h in reports(text) for f in h.findings]
    assert ("duplicate-card", "the 5h was dealt twice") in got
    assert not [f for f in got if "played twice" in f[1] or f[0] in ("wrong-trick-count", "out-of-turn")], got


SWAPPED = """Hand 1
Dealer Heidi
Deal Oscar 2c Qc 6s 3c 5c
Deal Heidi As 2d Ks Ac 6c
Up 6c
Oscar play
Heidi play
Trick Oscar Qc, Heidi Ac
Trick Heidi 2d, Oscar 5c
Trick Oscar 3c, Heidi 6c
{four}
{five}
"""


def test_a_trick_whose_next_lead_is_out_of_turn_is_not_judged():
    four, five = "Trick Heidi Ks, Oscar 6s", "Trick Heidi As, Oscar 2c"
    assert findings(SWAPPED.format(four=four, five=five)) == []
    # written the other way round: Oscar seems to trump a spade holding one, but then Heidi
    # leads the next trick Oscar seemed to win, so the order of the two is in doubt
    assert findings(SWAPPED.format(four=five, five=four)) == [("out-of-turn", 5, "Heidi")]


def test_a_dispute_names_the_trick_by_its_written_number():
    text = GAP.format(two="") + "Dispute Ivan failed-beat {n}\n"
    rulings = [(r.trick, r.ruling, r.evidence) for h in reports(text.format(n=4)) for r in h.rulings]
    # trick 4 is the third written (trick 2 is left out): Ivan's 7c beat Bob's 6c there
    assert rulings == [(4, "rejected", "trick 4: the 7c beat the 6c")]
    rulings = [(r.trick, r.ruling, r.evidence) for h in reports(text.format(n=2)) for r in h.rulings]
    assert rulings == [(2, "undecidable", "the record leaves out trick 2")]


# Eve's draw is written as standing pat: her hand reads as her deal, with one diamond, the Jd
PAT_WRITTEN = """[Seats "Alice Eve Dave Walter"]
Hand 1
Dealer Walter
Deal Alice 2d 3s 4s 5s 6s
Deal Eve Jd 7s As Kh 9c
Deal Dave Kd Td 4h 5h 6h
Deal Walter Kc Qh 8h 7h 2c
Up 2c
Alice play
Eve play
Dave play
Walter play
Trick 1: Alice 2d, Eve ?d, Dave Td, Walter 2c
Trick 2: Walter Kc, Alice 3s, Eve {card}, Dave 4h
"""


def test_a_hand_the_record_contradicts_pins_no_suit_only_card():
    # Eve plays the Ac, which her hand does not hold: it was typed wrong (she drew), so her
    # ?d need not be the Jd, and Dave's Td under it proves nothing
    text = PAT_WRITTEN.format(card="Ac")
    assert ("not-held", None, "Eve") in findings(text)
    assert plays(text) == []
    # her hand borne out: the ?d is her one diamond, the Jd, and Dave kept the Kd under it
    assert plays(PAT_WRITTEN.format(card="9c")) == [("failed-beat", 1, "Dave")]


# Bob drew the Th for his 6h, but his draw is written as standing pat: his `?h` at trick 5
# reads as the 6h, the one heart left in his hand as written, and gives Ann the trick
DRAW_WRITTEN_AS_PAT = """[Seats "Ann Bob"]
[Ante "1"]
Hand 1
Dealer Bob
Deal Ann 9h 8h 7h 3c 4c
Deal Bob As Ks 6h 2c 7d
Up As
Ann play
Bob play{draw}
Trick 1: Ann 3c, Bob 2c
Trick 2: Ann 4c, Bob As
Trick 3: Bob Ks, Ann 8h
Trick 4: Bob 7d, Ann 7h
Trick 5: Bob {card}, Ann 9h
{tricks}
Net Ann -1 Bob +1
"""


def test_a_count_that_fits_another_card_of_a_suit_only_cards_suit_is_no_finding():
    [h] = reports(DRAW_WRITTEN_AS_PAT.format(draw="", card="?h", tricks="Tricks Ann 1 Bob 4"))
    assert h.findings == [] and h.settlement.winner == "Bob"
    assert h.settlement.reading.startswith("tricks as the table's claims count them: Ann 1, Bob 4")
    assert h.replay.tricks == {"Ann": 2, "Bob": 3}  # the count as the record reads, kept
    # a count that fits no card of the suit there is still judged
    assert ("wrong-trick-count", None, "Ann") in findings(
        DRAW_WRITTEN_AS_PAT.format(draw="", card="?h", tricks="Tricks Ann 0 Bob 5"))
    # the card written, or the draw: nothing to read otherwise
    for draw, card in (("", "6h"), (" 6h -> Th", "?h")):
        text = DRAW_WRITTEN_AS_PAT.format(draw=draw, card=card, tricks="Tricks Ann 1 Bob 4")
        [h] = reports(text)
        assert h.settlement.reading == ""
        assert [f.kind for f in h.findings] == ([] if draw else ["wrong-trick-count"] * 2)


# Diamonds trump.  Ben trumped Ann's spade lead with the Td, so Dan had no duty to beat
# Cat's Ks with his As.  The record stops after trick 1 and leaves Ben's card out: a card
# missing before others written is no abandoned end of a trick, and it may have won.
LAST_TRICK = """[Seats "Ann Ben Cat Dan"]
Hand 1
Dealer Dan
Deal Dan As Qs 2c 3c 3d
Up 3d
Ann play
Ben play
Cat play
Dan play
Trick 1: Ann 3s, Ben Td, Cat Ks, Dan Qs
"""


def test_the_last_trick_written_without_a_card_from_before_others_judges_no_card_after_it():
    assert plays(LAST_TRICK) == []
    assert plays(LAST_TRICK.replace("Ben Td, ", "")) == []
    # the control: Ben's card written, a spade, Dan's Qs under the Ks is a failed beat
    assert [(k, p) for k, _, p in plays(LAST_TRICK.replace("Ben Td", "Ben 4s"))] == [("failed-beat", "Dan")]
