"""docs/rules.md, how a trick must be played, rule by rule, on the engine's legal sets."""

from __future__ import annotations

import pytest

from booray_audit.cards import cards_of, card_str, mask_of, parse_card
from booray_audit.cinch.position import reveal
from booray_audit.rules.engine import legal, winning
from booray_audit.rules.profiles import profile, with_toggle

S, H, D, C = 0, 1, 2, 3


def hand(text):
    return mask_of(parse_card(c) for c in text.split())


def trick(text):
    return [parse_card(c) for c in text.split()]


def allowed(h, t, trump, rules=None):
    lg = legal(hand(h), trick(t), trump, rules or profile("standard"))
    return " ".join(card_str(c) for c in cards_of(lg.cards)), lg.reason


def test_lead_is_free():
    assert allowed("As 2h 3d", "", S) == ("As 2h 3d", "lead")


def test_must_follow_and_beat_the_winner():
    assert allowed("Ah Th 5c", "Kh 4h", D) == ("Ah", "beat")


def test_follow_suit_when_unable_to_beat():
    assert allowed("9h 3h 5c", "Kh", D) == ("3h 9h", "follow")


def test_no_duty_to_beat_once_a_trump_has_beaten_a_plain_lead():
    # docs/rules.md, how a trick must be played rule 2: W is a trump, so any heart will do
    assert allowed("Ah 3h 5c", "8h 2c", C) == ("3h Ah", "follow")


def test_must_beat_on_a_trump_lead():
    assert allowed("Jd 3d 4h", "5d", D) == ("Jd", "beat")


def test_void_must_trump_and_over_trump():
    assert allowed("9s 3s Ac", "Ah 4s", S) == ("9s", "overtrump")


def test_void_with_only_losing_trumps_must_still_trump():
    assert allowed("3s 2s Ac", "Ah Ks", S) == ("2s 3s", "trump")


def test_trump_when_cannot_win_may():
    rules = with_toggle(profile("standard"), "trump-when-cannot-win", "may")
    assert allowed("3s 2s Ac", "Ah Ks", S, rules) == ("2s 3s Ac", "any")
    # but a trump that can win is still owed
    assert allowed("3s As Ac", "Ah Ks", S, rules) == ("As", "overtrump")


def test_void_in_both_plays_anything():
    assert allowed("2c 3d", "Ah", S) == ("3d 2c", "free")


def test_must_beat_previous_compares_with_the_card_just_played():
    rules = with_toggle(profile("standard"), "must-beat", "previous")
    # the Kh wins, but the card just played is the 4h: any heart above it will do
    assert allowed("9h 3h", "Kh 4h", D, rules) == ("9h", "beat")
    assert allowed("9h 3h", "Kh 4h", D) == ("3h 9h", "follow")


def test_basic_profile_only_follows_and_trumps():
    basic = profile("basic")
    assert allowed("Ah Th", "Kh", D, basic) == ("Th Ah", "follow")
    assert allowed("2s 9s Ac", "Ah 4s", S, basic) == ("2s 9s", "trump")


def test_must_trump_off():
    rules = with_toggle(profile("standard"), "must-trump", "no")
    assert allowed("2s Ac", "Ah", S, rules)[0] == "2s Ac"
    # no duty to trump, but a trump played must over-trump the trump winning the trick
    assert allowed("2s 9s Ac", "Ah 4s", S, rules) == ("9s Ac", "discard")
    assert allowed("2s 3s Ac", "Ah 4s", S, rules) == ("2s 3s Ac", "any")  # no trump of them beats it
    assert allowed("2s 9s Ac", "Ah 4s", S, with_toggle(rules, "must-overtrump", "no")) == ("2s 9s Ac", "any")


def test_an_under_trump_without_a_duty_to_trump_shows_no_higher_trump():
    rules = with_toggle(profile("standard"), "must-trump", "no")
    assert reveal(parse_card("2s"), trick("Ah 4s"), S, rules) == hand(
        "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah 5s 6s 7s 8s 9s Ts Js Qs Ks As")  # the void, and no trump above the 4s
    assert reveal(parse_card("Ac"), trick("Ah 4s"), S, rules) == hand(
        "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah")  # a discard shows only the void


@pytest.mark.parametrize("cards,trump,won", [
    ("Ah Kh 2s", S, 2), ("Ah Kh Qh", S, 0), ("5d Ac 2d", D, 0), ("3h 2s 4s", C, 0)])
def test_trick_winner(cards, trump, won):
    assert winning(trick(cards), trump) == won


def test_the_cards_that_beat_a_card_are_those_beats_names():
    """plays._beaters (a mask, for the last player's cinch duty) against engine.beats, card by card."""
    from booray_audit.rules.engine import beats
    from booray_audit.judge.plays import _beaters
    deck = [s * 16 + r for s in range(4) for r in range(2, 15)]
    for trump in range(4):
        for best in deck:
            assert {c for c in deck if _beaters(best, trump) >> c & 1} == \
                {c for c in deck if beats(c, best, trump)}, (card_str(best), trump)
