"""The house rules a platform's game needs (docs/rules.md): the lead going round the
table, a trump card turned from the stock, a draw limit for the first seats, the folded
hands and the discards reshuffled together, and the game that continues while nobody
takes the pot alone."""

from __future__ import annotations

import pytest

from booray_audit.cinch.judge import cinch_judge
from booray_audit.rules.profiles import RulesError, discards_text, profile, with_toggle
from booray_audit.rules.settle import Chain, Claims, Outcome

from .conftest import findings, reports

# three players, each holding one suit; hearts trump, so Cat takes every trick
ROTATING = """[Rules "standard"]
[Rule "lead=rotate"]
[Rule "cinch=off"]
[Seats "Ann Bob Cat"]

Hand 1
Dealer Cat
Deal Ann 2c 3c 4c 5c 6c
Deal Bob 2d 3d 4d 5d 6d
Deal Cat 2h 3h 4h 5h 6h
Up 6h
Ann play
Bob play
Cat play
Trick 1: Ann 2c, Bob 2d, Cat 2h
Trick 2: Bob 3d, Cat 3h, Ann 3c
Trick 3: Cat 4h, Ann 4c, Bob 4d
Trick 4: Ann 5c, Bob 5d, Cat 5h
Trick 5: Bob 6d, Cat 6h, Ann 6c
"""


def test_the_lead_goes_round_the_table():
    assert findings(ROTATING) == []
    (h,) = reports(ROTATING)
    assert h.replay.tricks == {"Ann": 0, "Bob": 0, "Cat": 5}


def test_under_the_winners_lead_the_same_hand_is_out_of_turn():
    text = ROTATING.replace('[Rule "lead=rotate"]\n', "")
    assert ("out-of-turn", 2, "Bob") in findings(text)


def test_a_lead_out_of_its_turn_round_the_table_is_named_with_the_rule():
    # trick 2 led by Ann, who won trick 1, where the lead had gone round to Bob
    text = ROTATING.replace("Trick 2: Bob 3d, Cat 3h, Ann 3c", "Trick 2: Ann 3c, Bob 3d, Cat 3h")
    (h,) = reports(text)
    f = next(f for f in h.findings if f.kind == "out-of-turn")
    assert (f.trick, f.player) == (2, "Ann")
    assert "Bob was on lead" in f.message and "the lead goes round the table" in f.evidence


def test_the_cinch_is_not_judged_while_the_lead_goes_round():
    rotating = with_toggle(profile("standard"), "lead", "rotate")
    assert cinch_judge(rotating) is None
    assert cinch_judge(profile("standard")) is not None


def test_a_trump_card_from_the_stock_is_in_nobodys_hand():
    text = ROTATING.replace("Up 6h", "Up Ah")
    assert [k for k, *_ in findings(text)] == ["bad-trump"]  # the up-card is not the dealer's last card
    stock = text.replace('[Rule "cinch=off"]', '[Rule "cinch=off"]\n[Rule "trump-card=stock"]')
    assert findings(stock) == []


def test_the_turned_card_leaves_the_stock_one_card_shorter():
    """Eight players dealt 40 cards and a card turned: 11 left.  Under trump-card=dealer
    the 12 drawn fit the stock, so a card one player discarded cannot reach another;
    under trump-card=stock the twelfth is drawn after the discards were reshuffled."""
    seats = ["A", "B", "C", "D", "E", "F", "G", "H"]
    deck = [r + s for s in "cdhs" for r in "23456789TJQKA"]
    hands = {p: deck[5 * i:5 * i + 5] for i, p in enumerate(seats)}
    stock = deck[40:]
    lines = ['[Rules "basic"]', '[Seats "A B C D E F G H"]', "", "Hand 1", "Dealer H"]
    lines += [f"Deal {p} {' '.join(hands[p])}" for p in seats]
    up = hands["H"][-1]
    lines.append(f"Up {up}")
    # A to F draw 2 each (12 cards); F's second is A's first discard, come back
    drawn = iter(stock[1:] + [hands["A"][0]])
    for p in seats:
        if p in "ABCDEF":
            lines.append(f"{p} play {hands[p][0]} {hands[p][1]} -> {next(drawn)} {next(drawn)}")
        else:
            lines.append(f"{p} play")
    text = "\n".join(lines) + "\n"
    assert "duplicate-card" in [k for k, *_ in findings(text)]
    turned = text.replace('[Rules "basic"]', '[Rules "basic"]\n[Rule "trump-card=stock"]').replace(
        f"Up {up}", f"Up {stock[0]}")
    assert "duplicate-card" not in [k for k, *_ in findings(turned)]


def test_a_draw_limit_for_the_first_seats_only():
    rules = profile("mondaynightpoker")
    assert discards_text(rules.max_discard) == "4,6:3@5"
    assert [rules.discard_limit(6, k) for k in range(6)] == [3, 3, 3, 3, 3, 4]
    assert [rules.discard_limit(5, k) for k in range(5)] == [4] * 5
    assert rules.discard_limit(8, None) == 4  # a seat not known: the most any seat may
    assert discards_text(profile("wikipedia").max_discard) == "7:3,8:3"
    assert discards_text(profile("standard").max_discard) == "5"
    with pytest.raises(RulesError):
        with_toggle(profile("standard"), "max-discard", "6:3@0")


SIX = """[Rules "mondaynightpoker"]
[Seats "A B C D E F"]

Hand 1
Dealer F
Deal A 2c 3c 4c 5c 6c
Deal B 2d 3d 4d 5d 6d
Deal C 2h 3h 4h 5h 6h
Deal D 7c 8c 9c Tc Jc
Deal E 7d 8d 9d Td Jd
Deal F 7h 8h 9h Th Jh
Up As
A play {a}
B play
C play
D play
E play
F play {f}
"""


def test_the_first_five_seats_past_five_players_draw_three():
    four = "2c 3c 4c 5c -> Qs Ks 2s 3s"
    (h,) = reports(SIX.format(a=four, f=""))
    (f,) = [f for f in h.findings if f.kind == "draw-limit"]
    assert f.player == "A" and "at most 3" in f.message and "seat 1 left of the dealer" in f.message
    (h,) = reports(SIX.format(a="", f="7h 8h 9h Th -> Qs Ks 2s 3s"))
    assert [f.kind for f in h.findings if f.kind == "draw-limit"] == []


def _continues(tricks: dict[str, int], chain: Chain, dealt=None, number=1):
    rules = profile("mondaynightpoker")
    rules = with_toggle(rules, "ante", "25")
    players = tuple(dealt or tricks)
    return chain.settle(Outcome(number, players, tuple(tricks), tricks), rules, Claims())


def test_a_sole_winner_with_nobody_bourre_ends_the_game():
    chain = Chain()
    s = _continues({"A": 3, "B": 1, "C": 1}, chain)
    assert (s.pot, s.winner, s.won, s.carry) == (75, "A", 75, 0)
    assert s.net == {"A": 50, "B": -25, "C": -25}
    nxt = _continues({"A": 3, "B": 2}, chain, dealt=("A", "B", "C"), number=2)
    assert nxt.antes == {"A": 25, "B": 25, "C": 25}  # a new game: everyone antes


def test_a_two_two_one_split_carries_the_pot_and_the_one_pays_nothing():
    chain = Chain()
    s = _continues({"A": 2, "B": 2, "C": 1}, chain)
    assert (s.winner, s.carry, s.net) == (None, 75, {"A": -25, "B": -25, "C": -25})
    nxt = _continues({"A": 4, "B": 1}, chain, number=2)
    assert nxt.antes == {} and nxt.pot == 75  # the continuation: no antes
    assert (nxt.winner, nxt.carry, nxt.net) == ("A", 0, {"A": 75, "B": 0})


def test_a_winner_takes_the_pot_while_the_bourre_player_keeps_the_game_going():
    chain = Chain()
    s = _continues({"A": 3, "B": 2, "C": 0, "D": 0}, chain)
    # A takes the 100; C and D pay 100 each; B, below the most, pays an ante at the end
    assert (s.winner, s.won, s.bourre) == ("A", 100, ["C", "D"])
    assert s.net == {"A": 75, "B": -50, "C": -125, "D": -125}
    assert s.carry == 225 and s.antes["B"] == 50
    nxt = _continues({"A": 2, "B": 2, "C": 1, "D": 0}, chain, number=2)
    # no ante at the start (the pot is what carried); a tie: the pot carries, D pays it, C
    # pays an ante at the end (four players: no 2-2-1 here)
    assert nxt.pot == 225 and nxt.antes == {"C": 25}
    assert (nxt.winner, nxt.carry) == (None, 225 + 225 + 25)
    assert nxt.net == {"A": 0, "B": 0, "C": -25, "D": -225}
