"""A reshuffle brings back the discards only, never a folded hand: a card dealt to a player
who passed reaches no other hand, even where the stock can have run out."""

from __future__ import annotations

from .conftest import reports

# Eight players: 40 cards dealt, a stock of 12, and 13 drawn: the stock runs out at Dee's
# draw.  Ann passed with five clubs; Bob plays her 2c.
FOLDED = """[Seats "Ann Bob Cal Dee Eve Fay Gus Hal"]

Hand 1
Dealer Hal
Deal Ann 2c 3c 4c 5c 6c
Up 9s
Ann pass
Bob play 5
Cal play 5
Dee play 3
Eve pass
Fay pass
Gus pass
Hal play
Trick 1: Bob 2c, Cal As, Dee Ks, Hal 9s
"""


def record_errors(text):
    [h] = reports(text)
    return [(f.kind, f.player, f.message) for f in h.findings if f.cls == "record"]


def test_a_passed_players_card_in_another_hand_is_a_duplicate_even_after_a_reshuffle():
    assert record_errors(FOLDED) == [
        ("duplicate-card", "Bob", "Bob played the 2c at trick 1, which was dealt to Ann, who passed")]


def test_a_passed_players_card_drawn_by_another_is_a_duplicate():
    text = FOLDED.replace("Dee play 3", "Dee play 7s 8s 9h -> 4c Qd Jd")
    assert ("duplicate-card", "Dee", "Dee drew the 4c, which was dealt to Ann, who passed") in record_errors(text)


def test_a_discard_may_come_back_after_a_reshuffle():
    """The control: Cal threw the 7c, and the stock ran out at Dee's draw, so the reshuffle
    may have brought it to Dee, who plays it: no error."""
    text = FOLDED.replace("Deal Ann 2c 3c 4c 5c 6c\n", "").replace(
        "Cal play 5", "Cal play 7c 8c 9c Tc Jc -> ?? ?? ?? ?? ??").replace(
        "Trick 1: Bob 2c, Cal As, Dee Ks, Hal 9s", "Trick 1: Bob 2c, Cal As, Dee 7c, Hal 9s")
    assert record_errors(text) == []


def test_without_the_deal_of_the_passed_player_nothing_is_known():
    assert record_errors(FOLDED.replace("Deal Ann 2c 3c 4c 5c 6c\n", "")) == []
