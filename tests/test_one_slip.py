"""One slip in the record, one message that names it: a sixth trick is one error for
the hand (not one per player of it), and a player named twice in a trick is said so
(not a card "played out of turn" and another "held by someone else")."""

from __future__ import annotations

from .conftest import reports

HAND = """[Seats "Ann Bob Cat Dan"]

Hand 1
Dealer Dan
Deal Ann 2c 3c 4c 5c 6c
Deal Bob 2d 3d 4d 5d 6d
Deal Cat 2h 3h 4h 5h 6h
Deal Dan 7c 8c 9c Tc Js
Up Js
Ann play
Bob play
Cat play
Dan play
Trick 1: Ann 2c, Bob 2d, Cat 2h, Dan 7c
Trick 2: Dan 8c, Ann 3c, Bob 3d, Cat 3h
Trick 3: Dan 9c, Ann 4c, Bob 4d, Cat 4h
Trick 4: Dan Tc, Ann 5c, Bob 5d, Cat 5h
Trick 5: Dan Js, Ann 6c, Bob 6d, Cat 6h
"""


def test_a_sixth_trick_is_one_error_for_the_hand_and_judges_no_play():
    (h,) = reports(HAND + "Trick 6: Dan Qs, Ann 7d, Bob 7h, Cat 8h\n")
    assert [(f.kind, f.player) for f in h.findings] == [("not-held", None)]
    (f,) = h.findings
    assert f.message.startswith("the record has 6 tricks, and a hand has 5")
    assert f.evidence == "Trick 6: Dan Qs, Ann 7d, Bob 7h, Cat 8h"


def test_a_player_named_twice_in_a_trick_is_one_message_that_says_so():
    text = HAND.replace("Trick 2: Dan 8c, Ann 3c, Bob 3d, Cat 3h", "Trick 2: Dan 8c, Ann 3c, Bob 3d, Bob 3h")
    (h,) = reports(text)
    assert [(f.kind, f.trick, f.player) for f in h.findings] == [("out-of-turn", 2, "Bob")]
    assert h.findings[0].message == ("Bob is named twice in trick 2, and Cat not at all: a card written under "
                                     "Bob's name may be Cat's")


def test_annotations_are_shown_under_their_hand_in_text_and_json(tmp_path):
    import json
    from .conftest import run_cli
    f = tmp_path / "noted.bhh"
    f.write_text(HAND.replace("Hand 1\n", "Hand 1 { the last hand of the night }\n").replace(
        "Ann play\n", "Ann play { after a long think }\n"))
    text = run_cli("check", f).stdout.decode()
    assert "  note (hand): the last hand of the night" in text
    assert "  note (Ann play): after a long think" in text
    doc = [json.loads(line) for line in run_cli("check", "--format", "json", f).stdout.decode().splitlines()
           if line.startswith("{\"hand\"")]
    assert doc[0]["notes"] == [{"on": "hand", "note": "the last hand of the night"},
                               {"on": "Ann play", "note": "after a long think"}]


def test_a_name_typed_wrong_in_a_trick_is_one_error_with_the_name_meant():
    text = HAND.replace("Trick 2: Dan 8c, Ann 3c, Bob 3d, Cat 3h", "Trick 2: Dan 8c, Ann 3c, Bbo 3d, Cat 3h")
    (h,) = reports(text)
    assert [(f.kind, f.player) for f in h.findings] == [("unknown-player", "Bbo")]
    assert "did you mean Bob?" in h.findings[0].message
