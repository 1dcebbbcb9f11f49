"""Names misspelt where no `Seats` tag says who sits at the table, and names misspelt in
the table's own claims.  A name one letter off another that never meets it where two
players would (both dealt, both declaring, in one trick) may be that player's: the hand is
settled both ways and the table's `Net` decides; so is a player only the claims name
(who passed, the line left out).  Each case here once called a right settlement wrong."""

from __future__ import annotations

import random
import re

import pytest

from booray_audit.generate import generate_text
from booray_audit.rules.profiles import profile

from .conftest import reports
from .test_generated import audited

# Alice passed; the record spells her `Alic` there and `Alice` in her deal.
ALIC = """[Ante "1"]
Hand 1
Dealer Bob
Deal Alice 2c 7d Jh 9h Qd
Deal Grace 9c Kd Ts 8h 8c
Deal Bob Th 5d 3s 5h As
Up As
{who} pass
Grace play 8c -> 3c
Bob play
Trick 1: Grace 8h, Bob Th
Trick 2: Bob 5h, Grace Ts
Trick 3: Grace Kd, Bob 5d
Trick 4: Grace 3c, Bob 3s
Trick 5: Bob As, Grace 9c
Tricks Bob 3 Grace 2
{net}"""

RIGHT = "Net Bob +2 Alice -1 Grace -1\n"


def claims(h) -> list:
    return [(f.kind, f.player) for f in h.findings if f.cls == "claim"]


def test_a_name_misspelt_without_seats_is_settled_both_ways_and_the_net_decides():
    right = reports(ALIC.format(who="Alice", net=RIGHT))[0]
    assert right.findings == [] and right.settlement.net == {"Alice": -1, "Grace": -1, "Bob": 2}
    h = reports(ALIC.format(who="Alic", net=RIGHT))[0]
    # before: Alic and Alice both anted, a pot of 4, "the table settled Bob at +2; the rules give +3"
    assert claims(h) == [] and h.settlement.net == right.settlement.net


def test_without_a_net_the_settlement_of_a_misspelt_hand_is_unknown_and_says_why():
    h = reports(ALIC.format(who="Alic", net=""))[0]
    assert h.settlement.net is None and "Alic and Alice" in h.settlement.unknown


def test_a_net_that_fits_neither_reading_is_still_wrong():
    h = reports(ALIC.format(who="Alic", net="Net Bob +5 Alice -1 Grace -1\n"))[0]
    [f] = [f for f in h.findings if f.cls == "claim"]
    assert (f.kind, f.player) == ("wrong-settlement", "Bob")
    assert "+2 or +3" in f.message and "Alic and Alice are one player or two" in f.message


def test_two_players_with_close_names_at_one_trick_are_two_players():
    text = """[Ante "1"]
Hand 1
Dealer Dan
Trump s
Ann play
Dan play
Trick 1: Ann As, Dan 2h
Trick 2: Ann Ks, Dan 3h
Trick 3: Ann Qs, Dan 4h
Trick 4: Ann Js, Dan 5h
Trick 5: Ann Ts, Dan 6h
Net Ann +1 Dan -3
"""
    h = reports(text)[0]
    assert h.replay.misspelt == [] and h.settlement.net == {"Ann": 1, "Dan": -3}


def test_a_player_only_the_net_names_may_have_passed_with_the_line_left_out():
    text = "\n".join(line for line in ALIC.format(who="Alice", net=RIGHT).splitlines()
                     if not line.startswith(("Deal ", "Alice pass"))) + "\n"
    h = reports(text)[0]
    # before: Alice was not dealt in, a pot of 2: "the table settled Bob at +2; the rules give +1"
    assert claims(h) == [] and h.settlement.net == {"Alice": -1, "Grace": -1, "Bob": 2}
    assert h.replay.maybe_dealt == ["Alice"]


def test_a_claim_naming_no_player_of_the_hand_is_not_judged():
    text = ALIC.format(who="Alice", net=RIGHT).replace("Tricks Bob 3 Grace 2", "Tricks Bob 3 Grac 2")
    assert reports(text)[0].findings == []  # before: "the table counted 2 tricks for Grac; the replay gives 0"
    seated = '[Seats "Alice Grace Bob"]\n' + text.replace("Net Bob +2", "Net Bo +2")
    h = reports(seated)[0]
    assert {(f.kind, f.player) for f in h.findings} == {("unknown-player", "Grac"), ("unknown-player", "Bo")}


def test_an_ante_claim_naming_no_player_of_the_hand_is_not_judged():
    for seats in ('[Seats "Alice Grace Bob"]\n', ""):
        text = seats + ALIC.format(who="Alice", net=RIGHT).replace("Up As", "Up As\nAnte Alic Grace Bob")
        # before: "the table says Alic anted, but Alic was not dealt in" and "Alice owed an ante
        # that the table does not list"
        assert claims(reports(text)[0]) == []
        text = seats + ALIC.format(who="Alice", net=RIGHT).replace("Up As", "Up As\nAnte Grace Bob")
        assert claims(reports(text)[0]) == [("wrong-ante", "Alice")]  # the list leaves her out


# -- generated: legal games typed without Seats, a name misspelt here and there --------------

def _misspelt(text: str, rng: random.Random, where: str) -> str:
    out = []
    for line in text.splitlines():
        if line.startswith("[Seats") or where == "drop-pass" and line.startswith("Deal "):
            continue  # no Seats, and for drop-pass no deal names the player either
        if rng.random() < 0.15:
            if where == "decision" and re.match(r"\S+ (play|pass|draw)\b", line) and not line.startswith(
                    ("Trick", "Deal")):
                name, rest = line.split(" ", 1)
                line = f"{name[:-1]} {rest}"
            elif where == "deal" and line.startswith("Deal "):
                _, name, rest = line.split(" ", 2)
                line = f"Deal {name[:-1]} {rest}"
            elif where == "drop-pass" and re.match(r"\S+ pass$", line):
                continue
            elif where == "claims" and line.startswith(("Tricks ", "Net ")):
                parts = line.split()
                parts[1] = parts[1][:-1]
                line = " ".join(parts)
        out.append(line)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("where", ("decision", "deal", "claims", "drop-pass"))
def test_legal_games_with_names_misspelt_and_no_seats_accuse_nobody(where):
    text, _ = generate_text(150, players=(3, 6), seed=6100, rules=profile("standard"))
    typed = _misspelt(text, random.Random(3), where)
    assert typed != text
    bad = [(h.replay.number, f.kind, f.player, f.message) for _, h in audited(typed, readable=False)
           for f in h.findings if f.cls in ("play", "claim")]
    assert bad == [], bad[:3]


# Alice went bourré in hand 1, so she owes no ante in hand 2, where her pass is written
# `alice`; only the table's claims spell her name there as the hands before did.
EXEMPT = """[Ante "1"]
Hand 1
Dealer Bob
Trump s
Alice play
Grace play
Bob play
Trick 1: Alice 2h, Grace 3h, Bob Ah
Trick 2: Bob As, Alice 3c, Grace 4c
Trick 3: Bob Ks, Alice 5c, Grace 6c
Trick 4: Bob 2d, Alice 3d, Grace Kd
Trick 5: Grace Ac, Bob 8c, Alice 9c
Tricks Alice 0 Grace 2 Bob 3
Net Alice -4 Grace -1 Bob +2

Hand 2
Dealer Alice
Trump h
Grace play
Bob play
{who} pass
Trick 1: Grace 2c, Bob Ac
Trick 2: Bob Ah, Grace 3h
Trick 3: Bob Kh, Grace 4h
Trick 4: Bob 2s, Grace As
Trick 5: Grace 5d, Bob 6d
Tricks Grace 1 Bob 4
{net}
"""


def test_a_name_only_the_claims_spell_as_the_hands_before_may_be_the_hands_name_misspelt():
    right = "Net Alice 0 Grace -1 Bob +4"
    _, h = reports(EXEMPT.format(who="alice", net=right))
    # before: `alice` anted as a new player, and "the table settled Bob at +4; the rules give +5"
    assert h.findings == [] and h.settlement.net == {"Alice": 0, "Grace": -1, "Bob": 4}
    assert h.replay.misspelt == [("alice", "Alice")]
    # spelt alike, one player: nothing in doubt
    _, h = reports(EXEMPT.format(who="Alice", net=right))
    assert h.findings == [] and h.replay.misspelt == []
    # a net that fits neither reading is still wrong
    _, h = reports(EXEMPT.format(who="alice", net="Net Alice 0 Grace -1 Bob +7"))
    assert [(f.kind, f.player) for f in h.findings] == [("wrong-settlement", "Bob")]



def test_a_name_spelt_close_to_one_the_hand_before_left_exempt_may_be_that_player():
    # the Net leaves out Alice (her net is 0): only the hand before knows her name
    _, h = reports(EXEMPT.format(who="alice", net="Net Grace -1 Bob +4"))
    assert h.findings == [] and h.settlement.net == {"Alice": 0, "Grace": -1, "Bob": 4}
    # with no claims, whether she owed the ante is not known, nor the pot
    _, h = reports(EXEMPT.format(who="alice", net="").replace("Tricks Grace 1 Bob 4\n", ""))
    assert h.settlement.net is None and "alice and Alice" in h.settlement.unknown
    # her deal spelt `alice`, her pass `Alice`: one use each, merged under the name the
    # hands before know (before: merged into `alice`, who owed an ante)
    # (Grace is Tom here: `alice` and `Grace` are close enough to be one name misspelt)
    dealt = EXEMPT.format(who="Alice", net="Net Grace -1 Bob +4").replace(
        "Alice pass", "Alice pass\nDeal alice 7h 8h 9s Tc Jd").replace("Grace", "Tom")
    _, h = reports(dealt)
    assert h.replay.misspelt == [("Alice", "alice")]
    assert h.findings == [] and h.settlement.net == {"Alice": 0, "Tom": -1, "Bob": 4}
    # with `Seats`, the name not seated is a record error, and Alice, seated, is exempt
    _, h = reports('[Seats "Alice Grace Bob"]\n' + EXEMPT.format(who="alice", net="Net Grace -1 Bob +4"))
    assert [(f.kind, f.player) for f in h.findings] == [("unknown-player", "alice")]


SEATED_MISSPELT = """[Rules "basic"]
[Ante "1"]
[Seats "Dave Trent Mallory"]

Hand 1
Up Qh
Trent pass
Mallor play 5
Dave pass
"""


def test_a_name_not_seated_close_to_one_seated_name_is_settled_both_ways_and_the_net_decides():
    # Mallory, typed Mallor, plays alone: read as a player of her own, "Mallor" took the
    # pot and Mallory owed an ante, and the table's right Net was called wrong
    (h,) = reports(SEATED_MISSPELT + "Net Dave -1 Trent -1 Mallory +2\n")
    assert [f.kind for f in h.findings] == ["unknown-player"]
    assert h.settlement.net == {"Dave": -1, "Trent": -1, "Mallory": 2}
    (h,) = reports(SEATED_MISSPELT)
    assert h.settlement.net is None
    assert h.settlement.unknown.startswith(
        "whether Mallor and Mallory are one player is not known (Mallor is not seated)")
