"""A record that says less never accuses more: the shapes people write from memory
(draws as counts, discards as `??`, a card as `??` or `?h`, a name misspelt without
`Seats`), each in a small hand, with the full record beside it where there is one."""

from __future__ import annotations

from .conftest import reports


def only(text):
    [h] = reports(text)
    return h


def plays(h):
    return [(f.kind, f.trick, f.player) for f in h.findings if f.cls == "play"]


def open_checks(h):
    return [(u.kind, u.trick, u.player) for u in h.replay.undecidable]


# Trump diamonds; Cal deals with the Kd up and plays Qd Ad 9d 4c 5h, so the Kd went out in
# his draw.  At trick 2, one trick won, he leads the Qd holding the Ad: with the Kd out of
# play the Qd is as high as the Ad.
KD_THROWN = """[Seats "Ann Ben Cal"]

Hand 1
Dealer Cal
Up Kd
Ann play 2
Ben play 1
Cal play 3
Trick 1: Ann 2s, Ben 3s, Cal 9d
Trick 2: Cal Qd, Ann 3d, Ben 4d
Trick 3: Cal Ad, Ann 5s, Ben 6s
Trick 4: Cal 4c, Ann 8c, Ben 9c
Trick 5: Ben Tc, Cal 5h, Ann Jc
Dispute Cal cinch 2
"""


def test_an_up_card_never_played_was_thrown_whatever_the_draw_line_says():
    for draw in ("Cal play 3", "Cal play 2", "Cal play Kd ?? ?? -> ?? ?? ??", "Cal play Kd Qh Ts -> 3"):
        h = only(KD_THROWN.replace("Cal play 3", draw))
        assert plays(h) == [], draw
        assert open_checks(h) == [], draw
        [ruling] = h.rulings
        assert ruling.ruling == "rejected", (draw, ruling)
        assert "Cal led the highest trump (or one as high)" in ruling.evidence
        assert h.settlement.net == {"Ann": -1, "Ben": -1, "Cal": 2}, draw


def test_a_dealt_card_never_played_was_thrown_with_the_draw_as_a_count():
    text = KD_THROWN.replace("Up Kd\n", "Deal Cal ?? ?? ?? ?? Kd\nUp Kd\n")
    assert plays(only(text)) == []


# Ann, one trick won, holds Ad Qd Jd and leads the Qd.  Whether the Kd separates them
# turns on Ann's discards, which `Ann play 2` does not show.
UNWRITTEN = """[Seats "Ann Ben Cal"]

Hand 1
Dealer Cal
Up 2d
Ann play 2
Ben play
Cal play
Trick 1: Ann As, Ben 3s, Cal 4s
Trick 2: Ann Qd, Ben 3d, Cal 2d
Trick 3: Ann Ad, Ben 5s, Cal 6s
Trick 4: Ann Jd, Ben 7s, Cal 8s
Trick 5: Ann 4c, Ben 5c, Cal 6c
Dispute Ann cinch 2
"""


def test_a_discard_the_record_does_not_show_may_make_the_lead_legal():
    h = only(UNWRITTEN)
    assert plays(h) == []
    assert open_checks(h) == [("cinch-lead", 2, "Ann")]
    reason = h.replay.undecidable[0].reason
    assert "the record does not show Ann's discards, and had Ann thrown the Kd, the Qd was as high" in reason
    assert [r.ruling for r in h.rulings] == ["undecidable"]


def test_discards_written_decide_the_unwritten_case_both_ways():
    thrown = only(UNWRITTEN.replace("Ann play 2", "Ann play Kd Th -> 2"))
    assert [r.ruling for r in thrown.rulings] == ["rejected"]
    # with the Kd thrown Ann held three sure trumps from the deal: leading the As broke it
    assert plays(thrown) == [("cinch-lead", 1, "Ann")]
    kept = only(UNWRITTEN.replace("Ann play 2", "Ann play 3h Th -> 2"))
    assert plays(kept) == [("cinch-lead", 2, "Ann")]


def test_no_cinch_is_not_proven_while_the_discards_the_player_knew_are_not_written():
    """At trick 1 Ann leads the As.  Had she thrown the Kd she held three sure trumps: her
    unwritten discards may have given her a cinch, so a dispute there is not rejected."""
    h = only(UNWRITTEN.replace("Dispute Ann cinch 2", "Dispute Ann cinch 1"))
    assert plays(h) == []
    [ruling] = h.rulings
    assert ruling.ruling == "undecidable"
    assert "the record does not show the cards Ann threw, which Ann knew: they may have made one" in ruling.evidence
    written = only(UNWRITTEN.replace("Dispute Ann cinch 2", "Dispute Ann cinch 1").replace(
        "Ann play 2", "Ann play 3h Th -> 2"))
    assert [(r.ruling, r.evidence) for r in written.rulings] == [
        ("rejected", "trick 1: Ann had no cinch; Ann led trick 1")]


def test_a_whole_deal_written_shows_every_discard_without_a_draw_line():
    """Ann's deal is written and she plays all five: she threw nothing, so the Kd was
    never hers to throw and separates the Qd from the Ad."""
    text = UNWRITTEN.replace("Ann play 2\n", "").replace("Up 2d\n", "Up 2d\nDeal Ann As Qd Ad Jd 4c\n")
    h = only(text)
    assert plays(h) == [("cinch-lead", 2, "Ann")]
    assert open_checks(h) == []


def test_a_card_played_later_by_another_was_no_discard():
    """Ben plays the Kd at trick 5: it was never Ann's discard, so it separates her Qd from
    her Ad (Ben broke must-beat under the Qd, holding it)."""
    text = UNWRITTEN.replace("Ann 4c, Ben 5c, Cal 6c", "Ann 4c, Ben Kd, Cal 6c")
    h = only(text)
    assert ("cinch-lead", 2, "Ann") in plays(h)
    assert [u for u in h.replay.undecidable if u.player == "Ann"] == []


# Trump hearts.  Ann leads the 9h and both others play under it while bound to beat it:
# neither holds a heart above the 9h.  At trick 2, one trick won, Ann holds Jh 8h and
# leads the 8h: the Th between them can be in no opponent's hand.
NOBODY_HOLDS = """[Seats "Ann Ben Cal"]

Hand 1
Dealer Cal
Up 3h
Ann play
Ben play
Cal play
Trick 1: Ann 9h, Ben 2h, Cal 3h
Trick 2: Ann 8h, Ben 4c, Cal 5h
Trick 3: Ann Jh, Ben 5c, Cal 6c
Trick 4: Ann Ks, Ben 7s, Cal 8s
Trick 5: Ann 2d, Ben 3d, Cal 4d
"""


def test_a_card_no_opponent_can_hold_does_not_separate():
    h = only(NOBODY_HOLDS)
    assert plays(h) == []
    assert h.settlement.net == {"Ann": 2, "Ben": -4, "Cal": -1}


# Trump spades.  Ann leads the 9h; Ben plays a heart the record does not rank.  Every heart
# above the 9h is played later (Th Jh by Ann, Qh Kh Ah by Ben) and the 3h-8h by Cal, so
# Ben's card is the 2h, 6h or 7h: under the 9h, with the Ah in hand.
SUIT_ONLY = """[Seats "Ann Ben Cal"]

Hand 1
Dealer Cal
Up 2s
Ann play
Ben play
Cal play
Trick 1: Ann 9h, Ben ?h, Cal 8h
Trick 2: Ann Th, Ben Qh, Cal 3h
Trick 3: Ben Kh, Cal 4h, Ann Jh
Trick 4: Ben Ah, Cal 5h, Ann As
Trick 5: Ann Ks, Ben 2c, Cal 2s
Dispute Ben failed-beat 1
"""


def test_a_suit_only_card_whose_every_rank_is_below_failed_to_beat():
    h = only(SUIT_ONLY)
    assert plays(h) == [("failed-beat", 1, "Ben")]
    [f] = [f for f in h.findings if f.kind == "failed-beat"]
    assert "it can only be the 2h, 6h or 7h" in f.message
    assert f.evidence == "held Ah: Ben played it at trick 4"
    assert [r.ruling for r in h.rulings] == ["upheld"]


def test_a_suit_only_card_that_may_be_above_proves_nothing():
    """The control: Ann leads the 7h at trick 2, not the Th, so Ben's `?h` may be the Th."""
    text = SUIT_ONLY.replace("Trick 2: Ann Th", "Trick 2: Ann 7h")
    h = only(text)
    assert plays(h) == []
    assert [r.ruling for r in h.rulings] == ["undecidable"]


# Clubs led; Ben's card is not shown; Alphonse throws a heart and plays a club later.
HIDDEN_IN_TRICK = """[Seats "Ann Ben Alphonse"]

Hand 1
Dealer Alphonse
Trump d
Trick 1: Ann Kc, Ben ??, Alphonse 3h
Trick 2: Ann Ad, Ben 2d, Alphonse 5c
Dispute Alphonse renege 1
"""


def test_an_unknown_card_of_another_player_does_not_hide_a_renege():
    h = only(HIDDEN_IN_TRICK)
    assert plays(h) == [("renege", 1, "Alphonse")]
    assert [r.ruling for r in h.rulings] == ["upheld"]


def test_an_unknown_card_that_may_win_the_trick_says_so():
    text = HIDDEN_IN_TRICK.replace("Alphonse 3h", "Alphonse 3c").replace("Alphonse 5c", "Alphonse Ac").replace(
        "Dispute Alphonse renege 1", "Dispute Alphonse failed-beat 1")
    h = only(text)
    assert plays(h) == []
    [ruling] = h.rulings
    assert ruling.ruling == "undecidable"
    assert "Ben's card at trick 1 is not shown (??): it may have been the card winning the trick" in ruling.evidence


def test_an_unknown_card_does_not_hide_a_failed_trump():
    h = only("""[Seats "Ann Ben Alphonse"]

Hand 1
Dealer Alphonse
Trump d
Trick 1: Ann Kc, Ben ??, Alphonse 3h
Trick 2: Ann Ad, Ben 2d, Alphonse 5d
Trick 3: Ann As, Ben 2s, Alphonse 4s
Trick 4: Ann Ah, Ben 5h, Alphonse 6h
Trick 5: Ann Ks, Ben 3s, Alphonse 7h
""")
    # void in clubs (no club in his five cards) and holding the 5d, played at trick 2
    assert plays(h) == [("failed-trump", 1, "Alphonse")]


# No `Seats`: Alphonse everywhere, Alphonce in one trick in his place.
MISSPELT = """Hand 1
Dealer Alphonse
Trump d
Deal Alphonse 3c Ah 4d 6s 5d
Trick 1: Ann Kc, Ben 2c, Alphonse 3c
Trick 2: Ann Ad, Ben 2d, Alphonce 4d
Trick 3: Ann 4h, Ben 5h, Alphonse Ah
Trick 4: Alphonse 6s, Ann 7s, Ben 8s
Trick 5: Ben 9c, Alphonse 5d, Ann Tc
"""


def test_a_name_misspelt_once_without_seats_is_an_unknown_player_with_a_suggestion():
    h = only(MISSPELT)
    errors = [(f.kind, f.player) for f in h.findings if f.cls == "record"]
    assert ("unknown-player", "Alphonce") in errors
    assert not any(kind == "missing-play" for kind, _ in errors)
    [f] = [f for f in h.findings if f.kind == "unknown-player"]
    assert "did you mean Alphonse?" in f.message
    # the same as with `Seats`
    seated = only('[Seats "Ann Ben Alphonse"]\n\n' + MISSPELT)
    assert sorted(k for k, _ in errors) == sorted(f.kind for f in seated.findings if f.cls == "record")
    assert h.settlement.antes == seated.settlement.antes


def test_two_players_with_close_names_are_two_players():
    text = MISSPELT.replace("Alphonce 4d", "Alphonse 4d").replace(
        "Trick 5: Ben 9c, Alphonse 5d, Ann Tc", "Trick 5: Ben 9c, Alphonse 5d, Ann Tc, Alphonce 2s")
    h = only(text)
    assert not any(f.kind == "unknown-player" for f in h.findings)
