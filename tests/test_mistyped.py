"""A card typed wrong: the 9d written 9c.  Where the rest of the record contradicts the
card (the deal does not hold it, or the next trick is led by someone its cards do not
make the winner), the card proves nothing: nobody is accused on its account, and what
hangs on it (a winner, the tricks won, a void) is in doubt.  Each case here once
accused an innocent player or called a right claim wrong."""

from __future__ import annotations

import pytest

from booray_audit.generate import generate_text
from booray_audit.judge.findings import kind_class
from booray_audit.rules.profiles import profile

from .conftest import reports
from .test_generated import audited
from .typed import as_typed, mistyped, trump_typed_wrong

# Bob led the Ad at trick 2; the record types it Ac, a card Bob was never dealt.
BOB_LEADS = """[Seats "Bob Mallory Heidi"]
[Ante "1"]
Hand 1
Dealer Bob
Deal Mallory Ts Kh 2s Kd 5h
Deal Heidi 6d 4c 9s 8h Ah
Deal Bob 8d Ad 2h 9d Ks
Up Ks
Mallory play Kd 5h -> 8c 3d
Heidi play 4c -> 3c
Bob play
Trick 1: Mallory 3d, Heidi 6d, Bob 9d
Trick 2: Bob {lead}, Mallory Ts, Heidi 9s
Trick 3: Mallory 8c, Heidi 3c, Bob Ks
Trick 4: Bob 2h, Mallory Kh, Heidi Ah
Trick 5: Heidi 8h, Bob 8d, Mallory 2s
Tricks Bob 2 Mallory 2 Heidi 1
Net Bob -1 Mallory -1 Heidi -1
"""


def kinds(h) -> set[tuple]:
    return {(f.kind, f.player) for f in h.findings}


def test_a_lead_the_deal_contradicts_leads_no_suit():
    right = reports(BOB_LEADS.format(lead="Ad"))[0]
    assert right.findings == [] and right.settlement.net == {"Bob": -1, "Mallory": -1, "Heidi": -1}
    h = reports(BOB_LEADS.format(lead="Ac"))[0]
    # before: Mallory and Heidi "held a club" and reneged on the club lead, paid for it,
    # and the table's right Net was called wrong
    assert kinds(h) == {("not-held", "Bob")}
    assert h.settlement.net == right.settlement.net
    assert [p for _, _, p, _, won in h.replay.plays if won] == [p for _, _, p, _, won in right.replay.plays if won]


def test_a_card_the_deal_contradicts_beats_nothing_and_its_player_may_have_played_any_card():
    # Bob's 8d at trick 5 typed as the 8s, a trump that would win the last trick
    text = BOB_LEADS.format(lead="Ad").replace("Bob 8d, Mallory 2s", "Bob 8s, Mallory 2s")
    h = reports(text)[0]
    assert {k for k, _ in kinds(h)} == {"not-held"}
    assert h.replay.tricks is None and h.settlement.net is None  # who won trick 5 hangs on it


# Without deals, Grace's 4d at trick 2 typed 4c: Heidi's 2d then wins it by its cards,
# yet Grace leads trick 3.
GRACE = """[Seats "Alice Heidi Grace"]
Hand 1
Dealer Heidi
Up 8s
Trump s
Grace play 4
Alice pass
Heidi play 1
Trick 1: Grace 9s, Heidi As
Trick 2: Heidi 2d, Grace 4c
Trick 3: Grace Tc, Heidi 6s
Trick 4: Heidi 9d, Grace 3s
Trick 5: Grace 2h, Heidi 8s
{claim}"""


def test_a_lead_out_of_turn_leaves_the_winner_before_it_in_doubt_and_the_cinch_unjudged():
    h = reports(GRACE.format(claim=""))[0]
    # before: "Heidi had a cinch (Heidi had already won 3 tricks) and led the 9d"
    assert kinds(h) == {("out-of-turn", "Grace")}
    assert h.replay.tricks is None and h.settlement.net is None
    assert not any(won for t, _, _, _, won in h.replay.plays if t == 2)  # trick 2: no winner shown
    assert sorted(w["Heidi"] for w in h.replay.ways) == [3, 4]


def test_the_tables_trick_count_picks_the_reading_it_fits():
    h = reports(GRACE.format(claim="Tricks Heidi 3 Grace 2\n"))[0]
    # before: both counts called wrong (the replay gave Heidi 4, Grace 1)
    assert [f for f in h.findings if kind_class(f.kind) == "claim"] == []
    h = reports(GRACE.format(claim="Tricks Heidi 2 Grace 3\n"))[0]  # fits no reading
    assert h.replay.ways and [f for f in h.findings if kind_class(f.kind) == "claim"] == []
    assert h.settlement.net is None


# Ben's Tc at trick 2 typed Th, a trump: by its cards Ben wins trick 2, yet Ann leads trick 3.
BEN = """[Seats "Ann Ben Cal"]
Hand 1
Dealer Cal
Up Ah
Trump h
Trick 1: Ann Jh, Ben 5s, Cal Ah
Trick 2: Cal 5c, Ann 9c, Ben Th
Trick 3: {three}
Trick 4: Ann 3d, Ben 7d, Cal Kd
Trick 5: Cal 8d, Ann 9d, Ben 2c
{claim}"""


def test_a_play_in_a_trick_the_next_lead_contradicts_proves_nothing_held_before():
    h = reports(BEN.format(three="Ann Ks, Ben 4s, Cal Qs", claim=""))[0]
    # before: "Ben played the 5s on a heart lead while holding a heart — held Th: Ben played it at trick 2"
    assert kinds(h) == {("out-of-turn", "Ann")}
    # the control: Ben leads trick 3 as his Th says, and the record proves the renege
    control = reports(BEN.format(three="Ben 4s, Cal Qs, Ann Ks", claim=""))[0]
    assert ("renege", "Ben") in kinds(control)


def test_a_reading_the_tables_count_fits_settles_the_hand():
    h = reports(BEN.format(three="Ann Ks, Ben 4s, Cal Qs", claim=""))[0]
    assert h.settlement.net is None and len(h.replay.ways) == 2
    h = reports(BEN.format(three="Ann Ks, Ben 4s, Cal Qs", claim="Tricks Ann 3 Cal 2 Ben 0\n"))[0]
    assert h.settlement.winner == "Ann" and h.settlement.bourre == ["Ben"]
    # with the trump named once only, diamonds as trump would fit the leads too: the trump
    # is in doubt, nothing is judged, and the table's count still settles the hand
    once = BEN.format(three="Ann Ks, Ben 4s, Cal Qs", claim="Tricks Ann 3 Cal 2 Ben 0\n").replace("Up Ah\n", "")
    h = reports(once)[0]
    assert kinds(h) == {("bad-trump", None)}
    assert h.settlement.winner == "Ann" and h.settlement.bourre == ["Ben"]



# Victor drew one card (written as a count), the Tc; his 8c at trick 5 is typed 8s.  Two
# cards he was not dealt for one drawn: the record contradicts itself, and the 8s proves
# no spade kept through the spade leads of tricks 2 to 4.
COUNTED_DRAW = """[Seats "Victor Sybil"]
[Ante "1"]
Hand 1
Dealer Sybil
Deal Victor 4h Jh 8h 8c Qd
Deal Sybil 7d 3s Kd 9h 4s
Up 4s
Victor play {drew}
Sybil play 3
Trick 1: Victor Tc, Sybil Qs
Trick 2: Sybil 6s, Victor Qd
Trick 3: Sybil 2s, Victor Jh
Trick 4: Sybil 4s, Victor 8h
Trick 5: Sybil 3s, Victor {last}
Tricks Victor 0 Sybil 5
"""


def test_more_cards_from_outside_the_deal_than_a_counted_draw_brought_are_an_error():
    h = reports(COUNTED_DRAW.format(drew=1, last="8s"))[0]
    assert [(f.kind, f.player) for f in h.findings] == [("not-held", "Victor")]
    assert "Victor played 2 cards not dealt to Victor (8s Tc), but drew 1" in h.findings[0].message
    # as played, or with a second card drawn (the record then proves the reneges)
    assert reports(COUNTED_DRAW.format(drew=1, last="8c"))[0].findings == []
    assert sorted(f.kind for f in reports(COUNTED_DRAW.format(drew=2, last="8s"))[0].findings) == [
        "renege"] * 3 + ["wrong-trick-count"] * 2


# -- generated: legal games, one card in three hands typed wrong ---------------------------

@pytest.mark.parametrize("seed", range(3))
def test_a_card_typed_wrong_against_the_deal_accuses_nobody(seed):
    rules = profile(("standard", "wikipedia", "basic")[seed])
    text, _ = generate_text(120, players=((2, 4), (4, 6), (6, 8))[seed], seed=7000 + seed, rules=rules)
    typed = mistyped(text, seed)
    assert typed != text
    bad = [(h.replay.number, f.kind, f.player, f.message) for _, h in audited(typed, readable=False)
           for f in h.findings if f.cls in ("play", "claim")]
    assert bad == [], bad[:3]


@pytest.mark.parametrize("style", ("no-deal", "counts"))
def test_without_deals_no_hand_the_record_contradicts_accuses_anyone(style):
    """With no deal to hold a card against, a card typed wrong may prove what it says;
    but in a hand with a record error (the card shown twice, a lead out of turn), no
    play is called a violation."""
    text, _ = generate_text(300, players=(3, 6), seed=7100, rules=profile("standard"))
    typed = as_typed(mistyped(text, 1, share=0.5), style, 1)
    flagged = bad = 0
    for _, h in audited(typed, readable=False):
        if any(f.cls == "record" for f in h.findings):
            flagged += 1
            bad += sum(1 for f in h.findings if f.cls == "play")
    assert flagged > 20 and bad == 0


def test_an_up_card_typed_wrong_leaves_to_the_next_lead_each_winner_the_trump_decides():
    text = BOB_LEADS.format(lead="Ad").replace("Up Ks", "Up Kd")  # the dealer's deal ends with the Ks
    h = reports(text)[0]
    # before: the tricks were taken with diamonds trump, and the table's right count called wrong
    assert {k for k, _ in kinds(h)} == {"bad-trump"}
    won = {t: p for t, _, p, _, w in h.replay.plays if w}
    # tricks 1 and 4 are the same with spades or diamonds trump; 2 and 3 go to who led next
    assert won == {1: "Bob", 2: "Mallory", 3: "Bob", 4: "Heidi"}
    # who won the last trick hangs on the trump; the table's count fits spades, and settles it
    assert h.replay.tricks is None and {"Bob": 2, "Mallory": 2, "Heidi": 1} in h.replay.ways
    assert h.settlement.net == {"Bob": -1, "Mallory": -1, "Heidi": -1}
    assert [f for f in h.findings if f.cls == "claim"] == []


# -- the trump typed wrong -------------------------------------------------------------

# Heidi turned up the 2s; the record says `Trump c`.  Read with clubs trump, Alice was
# void in spades at trick 3 and kept the Tc instead of trumping Heidi's 2s.  (The deal
# of the dealer is not held against the `Trump` line: people list its cards in any order.)
TRUMP_C = """[Seats "Heidi Alice"]
Hand 1
Dealer Heidi
Deal Alice 3s 6c 8h 5h Tc
Deal Heidi Jd 9c As Qh 2s
Trump c
Alice play 8h 6c 5h -> 3h 4h 3c
Heidi play Qh Jd 9c -> 2h Ac 5d
Trick 1: Alice 3h, Heidi 2h
Trick 2: Alice 3s, Heidi As
Trick 3: Heidi 2s, Alice 4h
Trick 4: Heidi Ac, Alice 3c
Trick 5: Heidi 5d, Alice Tc
Tricks Heidi 4 Alice 1
"""


def test_a_trump_the_tables_count_contradicts_judges_nobody():
    [h] = reports(TRUMP_C)
    assert [(f.kind, f.player, f.evidence) for f in h.findings] == [("bad-trump", None, "Tricks Heidi 4 Alice 1")]
    assert "the table's trick count fits spades or diamonds as trump, not clubs" in h.findings[0].message
    no_deals = "".join(line for line in TRUMP_C.splitlines(True) if not line.startswith("Deal "))
    [h] = reports(no_deals)
    assert [(f.kind, f.player) for f in h.findings] == [("bad-trump", None)]
    # the control: with nothing else to go by, the record proves what it says
    [h] = reports(no_deals.replace("Tricks Heidi 4 Alice 1\n", ""))
    assert [(f.kind, f.trick, f.player) for f in h.findings] == [("failed-trump", 3, "Alice")]


def test_a_trump_the_leads_contradict_judges_nobody():
    """Hearts were trump: Heidi's Th took Alice's Ad, and Heidi led next."""
    text = """[Seats "Heidi Alice"]
Hand 1
Dealer Heidi
Trump c
Alice play 3
Heidi play 1
Trick 1: Alice Ad, Heidi Th
Trick 2: Heidi Kc, Alice Ac
Trick 3: Alice 6h, Heidi Kh
Trick 4: Heidi 8h, Alice Qd
Trick 5: Heidi 4s, Alice Qc
"""
    [h] = reports(text)
    assert [(f.kind, f.player, f.evidence) for f in h.findings] == [("bad-trump", None, "tricks 1")]
    assert "with hearts fewer do" in h.findings[0].message
    # the control: with hearts named, the same tricks prove nothing against anyone
    [h] = reports(text.replace("Trump c", "Trump h"))
    assert h.findings == []


@pytest.mark.parametrize("style", ("deals", "no-deal"))
def test_a_trump_the_record_contradicts_accuses_nobody(style):
    """A trump typed wrong may prove what it says where no lead and no count contradict
    it (the deals do not say which card was turned up); but where the leads or the
    table's count do, nobody is accused and the count is not called wrong.  (The nets
    are left out: a hand believed before may have put the pot chain wrong.)"""
    text, _ = generate_text(300, players=(2, 6), seed=7200)
    typed = trump_typed_wrong(text, 1)
    flagged = bad = 0
    for _, h in audited(typed if style == "deals" else as_typed(typed, style, 1), readable=False):
        if any(f.kind == "bad-trump" for f in h.findings):
            flagged += 1
            bad += sum(1 for f in h.findings if f.cls == "play" or f.kind == "wrong-trick-count")
    assert flagged > 20 and bad == 0


def test_a_lead_under_a_wrong_name_does_not_settle_the_trick_before_it_when_the_trump_is_in_doubt():
    """Trent led trick 4; the record writes Dave twice.  The lead then contradicts Trent's
    4d taking trick 3 with diamonds trump, and spades or clubs fit it: the trump is in
    doubt.  Who took trick 3 must not be taken from the lead in question; the table's
    count fits diamonds and settles the hand."""
    text = """[Seats "Trent Dave Alice"]
Hand 1
Dealer Trent
Up 6d
Dave play 3h -> As
Alice play Js 8c 7c 5c -> 2h 6h 4h 2s
Trent play 8s 7s -> Jh 7d
Trick 1: Dave Qd, Alice 5d, Trent 6d
Trick 2: Dave Jd, Alice 6h, Trent 7d
Trick 3: Dave 6c, Alice 4h, Trent 4d
Trick 4: Dave Ts, Dave As, Alice 2s
Trick 5: Dave 8h, Alice 2h, Trent Jh
Tricks Trent 2 Dave 3 Alice 0
"""
    [h] = reports(text)
    assert kinds(h) == {("bad-trump", None), ("out-of-turn", "Dave")}
    assert h.settlement.winner == "Dave" and h.settlement.won == 3


def test_a_trick_line_written_again_with_a_card_put_right_accuses_nobody_on_either_copy():
    # trick 5 written twice, the first copy with Oscar's 4s typed Qs: read as written, the
    # Qs "proved" Oscar held a spade that beat the Js at trick 4
    text = """[Seats "Peggy Ivan Walter Oscar Grace Alice"]
Hand 1
Dealer Alice
Up 9s
Trick 1: Peggy 7d, Ivan Ad, Walter 3d, Oscar Qd, Grace 9d, Alice Ks
Trick 2: Alice Ah, Peggy 2h, Ivan 6h, Walter 5h, Oscar Kh, Grace 9h
Trick 3: Alice 9s, Peggy 7s, Ivan Ts, Walter As, Oscar 5s, Grace 6s
Trick 4: Walter Js, Oscar 8s, Grace 3c, Alice Qh, Peggy 2s, Ivan Kc
Trick 5: Walter 3s, Oscar Qs, Grace 9c, Alice Jh, Peggy 4h, Ivan Qc
Trick 5: Walter 3s, Oscar 4s, Grace 9c, Alice Jh, Peggy 4h, Ivan Qc
"""
    (h,) = reports(text)
    assert [f for f in h.findings if f.cls == "play"] == []
    # one error for the hand, not one for each player of the trick written again
    assert [(f.kind, f.player, f.message) for f in h.findings if f.kind == "not-held"] == [
        ("not-held", None, "the record has 6 tricks, and a hand has 5: a trick may be written twice, or come "
                           "from another hand (no play of this hand is judged)")]
    # unnumbered, the same
    (h,) = reports(text.replace("Trick 1: ", "Trick ").replace("Trick 2: ", "Trick ").replace(
        "Trick 3: ", "Trick ").replace("Trick 4: ", "Trick ").replace("Trick 5: ", "Trick "))
    assert [f for f in h.findings if f.cls == "play"] == []
