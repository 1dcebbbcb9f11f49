"""Findings of docs/rules.md, the findings on small records: each with the proof the record gives."""

from __future__ import annotations

from booray_audit.rules.profiles import profile

from .conftest import findings, reports

THREE = '[Seats "Ann Ben Cal"]\n'
FOUR = '[Seats "Ann Ben Cal Dee"]\n'


def only(text, rules=None):
    return set(findings(text, rules))


def first(text, kind):
    return next(f for h in reports(text) for f in h.findings if f.kind == kind)


# -- play findings --------------------------------------------------------------

def test_renege_proven_by_the_deal_names_the_card():
    text = THREE + """Hand 1
Dealer Cal
Deal Ben 2s 4h 5h 6h 7h
Trump d
Ben play
Trick Ann As, Ben 4h, Cal 3s
"""
    f = first(text, "renege")
    assert (f.trick, f.player) == (1, "Ben")
    assert "2s" in f.evidence and "dealt" in f.evidence


def test_renege_proven_by_a_suit_only_card_played_later():
    text = THREE + """Hand 1
Dealer Cal
Trump d
Trick Ann As, Ben 4h, Cal 3s
Trick Ann Ks, Ben ?s, Cal 4s
"""
    assert only(text) == {("renege", 1, "Ben")}


def test_unknown_cards_prove_nothing():
    text = THREE + """Hand 1
Dealer Cal
Trump d
Trick Ann As, Ben ??, Cal 3s
Trick Ann Ks, Ben 4h, Cal ??
Dispute Ben renege 1
"""
    h = reports(text)[0]
    assert h.findings == []
    assert [(r.ruling) for r in h.rulings] == ["undecidable"]


def test_failed_trump_needs_proof_of_the_void():
    complete = THREE + """Hand 1
Dealer Cal
Trump d
Trick Ann As, Ben 4h, Cal 3s
Trick Ann Ks, Ben 2d, Cal 4s
Trick Ben 5h, Cal 6h, Ann 7h
Trick Ann Th, Ben 8h, Cal 9h
Trick Ann Jh, Ben Qh, Cal Kh
"""
    f = first(complete, "failed-trump")
    assert (f.trick, f.player) == (1, "Ben") and "2d" in f.evidence
    partial = "\n".join(complete.splitlines()[:7]) + "\n"  # Ben's last tricks unknown: was he void?
    assert only(partial) == set()


def test_failed_trump_may_when_no_trump_can_win():
    text = FOUR + """Hand 1
Dealer Dee
Trump s
Trick Ann Ah, Ben Ks, Cal 2c, Dee 3h
Trick Ben Kc, Cal 2s, Dee 4c, Ann 5c
Trick Cal 2d, Dee 3d, Ann 4d, Ben 5d
Trick Ben 6d, Cal 7d, Ann 8d, Dee 9d
Trick Dee Td, Ann Jd, Ben Qd, Cal Kd
"""
    # Cal was void in hearts and held only the 2s, which could not beat the Ks
    assert ("failed-trump", 1, "Cal") in only(text)
    may = profile("standard")
    from booray_audit.rules.profiles import with_toggle
    may = with_toggle(may, "trump-when-cannot-win", "may")
    assert ("failed-trump", 1, "Cal") not in only(text, may)


def test_failed_beat_and_basic_profile_silence():
    text = open_case("03-must-beat-in-suit.bhh")
    assert only(text) == {("failed-beat", 2, "Ann")}
    assert only(text, profile("basic")) == set()


def test_after_a_trump_any_card_of_the_led_suit_is_legal():
    assert only(open_case("06-after-trumped-free.bhh")) == set()


def test_must_beat_on_a_trump_lead():
    assert only(open_case("05-trump-lead-must-beat.bhh")) == {("failed-beat", 1, "Ben")}


def test_over_trump():
    f = first(open_case("04-trump-and-overtrump.bhh"), "failed-beat")
    assert (f.trick, f.player, f.rule) == (1, "P3", "must-overtrump") and "9s" in f.evidence


def test_cinch_lead():
    f = first(open_case("07-cinch-lead.bhh"), "cinch-lead")
    assert (f.trick, f.player) == (2, "Ann") and "As" in f.message


def test_cinch_follow():
    text = FOUR + """Hand 1
Dealer Cal
Deal Ann As Ks Qs 2s 8c
Trump s
Dee play
Ann play
Ben play
Cal play
Trick Dee 4h, Ann 2s, Ben 5h, Cal 6h
"""
    assert only(text) == {("cinch-follow", 1, "Ann")}


def test_cinch_follow_accepts_an_equivalent_trump():
    text = FOUR + """Hand 1
Dealer Cal
Deal Ann As Ks Qs 2s 8c
Trump s
Dee play
Ann play
Ben play
Cal play
Trick Dee 4h, Ann Qs, Ben 5h, Cal 6h
"""
    assert only(text) == set()


def test_cinch_last():
    text = '[Rule "must-trump=no"]\n' + FOUR + """Hand 1
Dealer Ann
Deal Ann As Ks Qs 2s 8c
Trump s
Ben play
Cal play
Dee play
Ann play
Trick Ben 4h, Cal 5h, Dee 6h, Ann 8c
"""
    assert only(text) == {("cinch-last", 1, "Ann")}


def test_lead_trump_when_others_void():
    text = '[Rules "wikipedia"]\n' + THREE + """Hand 1
Dealer Cal
Deal Ann 9s 8s 2h 3c 2d
Trump s
Ann play
Ben play
Cal play
Trick Ann 9s, Ben 3h, Cal 4d
Trick Ann 2h, Ben 4h, Cal 5h
"""
    assert only(text) == {("lead-trump", 2, "Ann")}
    assert only(text.replace('[Rules "wikipedia"]\n', "")) == set()


# -- record findings --------------------------------------------------------------

def test_dealer_passed():
    assert ("dealer-passed", None, "Ben") in only(open_case("10-walkover-and-all-pass.bhh"))


def test_out_of_turn_lead():
    text = THREE + """Hand 1
Dealer Cal
Trump s
Trick Ann As, Ben 2s, Cal 3s
Trick Ben 4h, Cal 5h, Ann 6h
"""
    assert ("out-of-turn", 2, "Ben") in only(text)


def test_out_of_turn_first_lead_and_order():
    text = THREE + "Hand 1\nDealer Cal\nTrump s\nTrick Ben 2h, Ann 3h, Cal 4h\n"
    assert ("out-of-turn", 1, "Ben") in only(text)


def test_each_card_in_two_places_is_named_once_where_it_shows():
    """The record's cards are first compared as masks, and walked card by card only where
    one is in two places: each of those walks still names the card and the players."""
    def messages(events):
        text = THREE + "Hand 1\nDealer Cal\nTrump s\n" + events
        return [f.message for h in reports(text) for f in h.findings if f.kind == "duplicate-card"]
    tricks = "Trick Ann 2d, Ben 3d, Cal 4d\n"
    assert messages("Trick Ann As, Ben 2s, Cal 3s\nTrick Ben 4h, Cal 5h, Ann As\n") == [
        "the As was played twice"]
    assert messages("Deal Ann As 2h 3h 4h 5h\nDeal Ben As 6h 7h 8h 9h\n" + tricks) == [
        "the As was dealt twice"]
    assert messages("Deal Ann As 2h 3h 4h 5h\nDeal Ben 6h 7h 8h 9h Th\nAnn play\nBen play 6h -> As\n"
                    "Cal play\n" + tricks) == ["the As is in two hands"]
    assert messages("Deal Ann As 2h 3h 4h 5h\nAnn play\nBen play\nCal play\n"
                    "Trick Ann 2h, Ben As, Cal 6h\n") == ["Ben played the As, which Ann held"]


def test_duplicate_card_and_not_held():
    dup = THREE + "Hand 1\nDealer Cal\nTrump s\nTrick Ann As, Ben 2s, Cal 3s\nTrick Ann As, Ben 4s, Cal 5s\n"
    assert ("duplicate-card", None, "Ann") in only(dup)
    held = THREE + ("Hand 1\nDealer Cal\nDeal Ann As 2h 3h 4h 5h\nTrump s\nAnn play\nBen play\nCal play\n"
                    "Trick Ann Ks, Ben 2s, Cal 3s\n")
    assert ("not-held", None, "Ann") in only(held)


def test_hand_size_and_draw_limit():
    text = '[Rules "wikipedia"]\n[Seats "A B C D E F G"]\n' + """Hand 1
Dealer G
Deal A As 2h 3h 4h
Trump s
A play 4
B play 2 -> 3
"""
    got = only(text)
    assert ("hand-size", None, "A") in got and ("draw-limit", None, "A") in got
    assert ("hand-size", None, "B") in got


def test_bad_trump():
    text = THREE + "Hand 1\nDealer Cal\nDeal Cal 2s 3s 4s 5s 6s\nUp Jd\nTrump s\n"
    assert ("bad-trump", None, None) in only(text) and ("bad-trump", None, "Cal") in only(text)


def test_a_play_violation_does_not_stop_the_replay():
    # Dave's failed trump at trick 2 and later tricks are all still counted
    h = reports(open_case("01-spec-example.bhh"))[0]
    assert h.replay.tricks == {"Alice": 1, "Carol": 0, "Dave": 0, "Eve": 4}


# -- disputes ---------------------------------------------------------------------

def test_dispute_rulings():
    h = reports(open_case("01-spec-example.bhh"))[0]
    rulings = {(r.player, r.kind): r for r in h.rulings}
    assert rulings[("Dave", "failed-trump")].ruling == "upheld"
    assert "7c" in rulings[("Dave", "failed-trump")].evidence
    assert rulings[("Carol", "failed-beat")].ruling == "rejected"


def open_case(name):
    from .conftest import CORPUS
    return (CORPUS / name).read_text(encoding="utf-8-sig")


def test_record_disputes_need_a_record_that_can_show_them():
    bare = "Hand 1\nTrick Ann As, Ben 2s\nDispute Ben out-of-turn 1\n"
    assert [r.ruling for r in reports(bare)[0].rulings] == ["undecidable"]
    full = THREE + "Hand 1\nDealer Cal\nTrump s\nTrick Ann As, Ben 2s, Cal 3s\nDispute Ben out-of-turn 1\n"
    assert [r.ruling for r in reports(full)[0].rulings] == ["rejected"]
