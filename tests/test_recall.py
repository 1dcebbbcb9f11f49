"""The written rules' own penalties and variants (docs/rules.md, recalls and forfeited deals;
folded hands first): `Recall NAME CARD [TRICK]`, `NAME forfeits deal`, the deal's rotation
with forfeits, `recall=forfeit|penalty|free` and `reshuffle=discards|folded-first`."""

from __future__ import annotations

import collections
import io

import pytest

from booray_audit import record as r
from booray_audit.generate import generate_text
from booray_audit.notation import reader as notation
from booray_audit.notation import strict
from booray_audit.notation.syntax import parser
from booray_audit.notation.writer import write
from booray_audit.rules.profiles import profile, with_toggle

from .conftest import reports
from .test_generated import audited

# Ann holds the three top trumps and takes three tricks; at trick 4 she leads the 3h,
# takes it back and leads the 2h instead (both legal).  At trick 1 Ben puts the 4h on a
# trump lead while holding the 8s (a renege), takes it back, and the 8s stands.
HAND = """[Seats "Ann Ben"]

Hand 1
Dealer Ben
Deal Ann As Ks Qs 2h 3h
Deal Ben 4h 5h 6h 7h 8s
Up 8s
Ann play
Ben play
{recall_ben}Trick 1: Ann As, Ben 8s
Trick 2: Ann Ks, Ben 4h
Trick 3: Ann Qs, Ben 5h
{recall_ann}Trick 4: Ann 2h, Ben 6h
Trick 5: Ben 7h, Ann 3h
"""


def hand(recall_ben="", recall_ann="", rule=""):
    text = HAND.format(recall_ben=recall_ben, recall_ann=recall_ann)
    return (f'[Rule "{rule}"]\n' if rule else "") + text


def one(text, rules=None):
    [h] = reports(text, rules)
    return h


# -- the notation -------------------------------------------------------------

def test_recall_and_forfeit_lines_read_alike_by_both_readers_and_write_back():
    lines = ["Recall Ben 4h", "Recall Ben 4h 2", "recall Ben 10h", "Ben forfeits deal", "Ben FORFEITS Deal"]
    lark = [parser().parse(line)[0] for line in lines]
    fast = strict.items([(1, line) for line in lines])
    assert fast == lark
    assert [type(e) for e in lark] == [r.Recall, r.Recall, r.Recall, r.Forfeit, r.Forfeit]
    assert lark[1].trick == 2 and lark[0].trick is None and lark[3].player == "Ben"
    session = r.Session((("Event", "x"),), (r.Hand(1, tuple(lark)),))
    text = write([session])
    assert "Recall Ben 4h 2\n" in text and "Ben forfeits deal\n" in text
    [again] = [i for i in notation.read(io.BytesIO(text.encode()), "t") if isinstance(i, r.Hand)]
    assert again.events == tuple(lark)


def test_a_player_named_recall_or_forfeits_is_quoted_in_the_tidy_form():
    session = r.Session((), (r.Hand(1, (r.Decision("Recall", "pass"), r.Forfeit("forfeits"))),))
    text = write([session])
    assert '"Recall" pass' in text and '"forfeits" forfeits deal' in text
    [again] = [i for i in notation.read(io.BytesIO(text.encode()), "t") if isinstance(i, r.Hand)]
    assert again.events == session.hands[0].events


def test_a_forfeit_written_wrong_says_what_was_expected():
    items = list(notation.read(io.BytesIO(b"Hand 1\nBen forfeits turn\n"), "t"))
    [problem] = [i for i in items if isinstance(i, r.SyntaxProblem)]
    assert (problem.line, problem.column) == (2, 14) and "`deal`" in problem.message


# -- the recall finding ---------------------------------------------------------

def test_a_recalled_illegal_card_is_a_recall_finding_naming_the_rule_it_broke():
    h = one(hand(recall_ben="Recall Ben 4h\n"))
    [f] = h.findings
    assert (f.kind, f.cls, f.trick, f.player, f.rule) == ("recall", "play", 1, "Ben", "recall")
    assert "took back the 4h at trick 1 and played the 8s instead" in f.message
    assert "had it stood, the 4h was a renege" in f.evidence and "held 8s" in f.evidence


def test_a_recalled_legal_card_is_a_recall_finding_that_says_it_broke_nothing():
    h = one(hand(recall_ann="Recall Ann 3h\n"))
    [f] = h.findings
    assert (f.kind, f.trick, f.player) == ("recall", 4, "Ann")
    assert "broke no rule the record shows" in f.evidence


def test_a_recall_may_name_its_trick_and_stand_anywhere_in_the_hand():
    at_end = hand() + "Recall Ben 4h 1\n"
    assert [(f.kind, f.trick, f.player) for f in one(at_end).findings] == [("recall", 1, "Ben")]


@pytest.mark.parametrize("line, why", [
    ("Recall Ben As 1\n", "Ann played the As at trick 1"),  # another player's card
    ("Recall Ben Kd 1\n", "Ben's hand at trick 1 is known"),  # not in the hand the record shows
    ("Recall Ben 8s 1\n", "the card that stood"),
])
def test_a_recalled_card_the_player_cannot_have_held_is_not_held(line, why):
    h = one(hand() + line)
    [f] = h.findings
    assert (f.kind, f.cls, f.player) == ("not-held", "record", "Ben")
    assert why in f.evidence


def test_a_recall_at_a_trick_the_player_has_no_card_in_is_a_record_error():
    text = hand().replace("Trick 5: Ben 7h, Ann 3h\n", "Trick 5: Ben 7h\n") + "Recall Ann 3h 5\n"
    assert ("not-held", 5, "Ann") in [(f.kind, f.trick, f.player) for f in one(text).findings]


# -- what a recall costs -----------------------------------------------------------

@pytest.mark.parametrize("rule, winner, net", [
    ("", None, {"Ann": -1, "Ben": -1}),                             # forfeit: no pot, no penalty
    ("recall=forfeit", None, {"Ann": -1, "Ben": -1}),
    ("recall=penalty", None, {"Ann": -3, "Ben": -1}),               # paid like a renege
    ("recall=free", "Ann", {"Ann": 1, "Ben": -1}),
])
def test_a_recall_forfeits_the_pot_pays_like_a_violation_or_costs_nothing(rule, winner, net):
    h = one(hand(recall_ann="Recall Ann 3h\n", rule=rule))
    assert h.replay.tricks == {"Ann": 3, "Ben": 2}
    assert (h.settlement.winner, h.settlement.net) == (winner, net)
    assert [f.kind for f in h.findings] == ["recall"]


def test_a_recall_alone_is_no_violation_for_the_stats():
    h = one(hand(recall_ann="Recall Ann 3h\n"))
    assert h.settlement.penalties == {}


# -- disputes -------------------------------------------------------------------------

def test_a_recall_dispute_is_upheld_by_the_recall_line_and_undecidable_without_one():
    upheld = one(hand(recall_ben="Recall Ben 4h\n") + "Dispute Ben recall 1\n").rulings
    assert [(x.kind, x.ruling) for x in upheld] == [("recall", "upheld")]
    [x] = one(hand() + "Dispute Ben recall\n").rulings
    assert x.ruling == "undecidable" and "no card taken back by Ben" in x.evidence


# -- the deal's rotation ------------------------------------------------------------------

SESSION = """[Seats "Ann Ben Cat"]

Hand 1
Dealer Cat
{forfeits}Trick 1: Ann As, Ben 2s, Cat 3s

Hand 2
{dealer}Trick 1: {lead} 4h
"""


def dealers(text):
    return [(h.replay.dealer, [(f.kind, f.player, f.evidence) for f in h.findings if f.kind == "out-of-turn"])
            for h in reports(text)]


def test_the_deal_skips_a_forfeited_turn_once():
    text = SESSION.format(forfeits="Ann forfeits deal\n", dealer="", lead="Cat")
    assert dealers(text) == [("Cat", []), ("Ben", [])]
    # each forfeit skips one turn: the next hands go round as usual
    more = text + "\nHand 3\nTrick 1: Ann 5h\n\nHand 4\nTrick 1: Ben 6h\n"
    assert [d for d, _ in dealers(more)] == ["Cat", "Ben", "Cat", "Ann"]


def test_two_forfeits_in_a_row_skip_both_and_a_recall_forfeits_too():
    text = SESSION.format(forfeits="Ann forfeits deal\nRecall Ben 9h 1\n", dealer="", lead="Ann")
    assert [d for d, _ in dealers(text)] == ["Cat", "Cat"]
    free = '[Rule "recall=free"]\n' + text  # a recall that forfeits nothing
    assert [d for d, _ in dealers(free)] == ["Cat", "Ben"]


def test_a_dealer_line_naming_a_forfeited_turn_is_out_of_turn_naming_the_forfeit():
    text = SESSION.format(forfeits="Ann forfeits deal\n", dealer="Dealer Ann\n", lead="Ben")
    [first, second] = dealers(text)
    assert first == ("Cat", [])
    assert second == ("Ann", [("out-of-turn", "Ann", "hand 1: Ann declared early")])


def test_a_dealer_line_after_the_skip_is_no_error():
    text = SESSION.format(forfeits="Ann forfeits deal\n", dealer="Dealer Ben\n", lead="Cat")
    assert dealers(text) == [("Cat", []), ("Ben", [])]


def test_after_a_gap_in_the_hands_forfeits_are_not_carried():
    text = SESSION.format(forfeits="Ann forfeits deal\n", dealer="Dealer Ann\n", lead="Ben").replace(
        "Hand 2", "Hand 3")
    assert dealers(text)[1] == ("Ann", [])


# -- folded hands first ---------------------------------------------------------------------

# Eight players leave twelve cards in the stock; Cat and Dan draw five each, so Eve's third
# card comes from a reshuffle (the folded hands of Ann and Ben, under folded-first)
EIGHT = """[Seats "Ann Ben Cat Dan Eve Fay Gus Hal"]
{rule}
Hand 1
Dealer Hal
Deal Ann 2c 3c 4c 5c 6c
Deal Ben 2d 3d 4d 5d 6d
Deal Cat 7c 8c 9c Tc Jc
Deal Eve 7h 8h 9h Th Jh
Up Qs
Ann pass
Ben pass
Cat play 7c 8c 9c Tc Jc -> {cat}
Dan play 5
Eve play 7h 8h 9h -> {eve}
Fay play 2
Gus play
Hal play
"""


def eight(eve, cat="As Ks Js Ts 7s", rule=""):
    text = EIGHT.format(eve=eve, cat=cat, rule=f'[Rule "reshuffle={rule}"]\n' if rule else "")
    return [(f.kind, f.player) for f in one(text).findings]


def test_a_passers_card_drawn_by_another_is_a_duplicate_under_reshuffle_discards():
    assert eight("9s 8s 2c") == [("duplicate-card", "Eve")]


def test_a_passers_card_drawn_after_the_stock_can_have_run_out_is_legal_folded_first():
    assert eight("9s 8s 2c", rule="folded-first") == []


def test_folded_first_a_passers_card_drawn_before_the_stock_can_run_out_is_a_duplicate():
    # Cat drew first, with eleven cards still in the stock
    assert eight("9s 8s 6s", cat="2c Ks Js Ts 7s", rule="folded-first") == [("duplicate-card", "Cat")]


def test_folded_first_a_discard_cannot_come_back_while_the_folded_hands_last():
    # Eve's third card is Cat's discard: the ten folded cards came first, so it cannot be
    assert eight("9s 8s 7c", rule="folded-first") == [("duplicate-card", "Eve")]
    assert eight("9s 8s 7c") == []  # the discards reshuffled: Cat's 7c may come back


def test_folded_first_a_player_remembers_their_discards_until_the_folded_cards_run_out():
    from booray_audit.judge.knowledge import Knowledge
    hand_ = [i for i in notation.read(io.BytesIO(EIGHT.format(eve="9s 8s 2c", cat="As Ks Js Ts 7s",
                                                              rule="").encode()), "t")
             if isinstance(i, r.Hand)][0]
    seats = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
    active = seats[2:]

    def forgotten(rules):
        know = Knowledge(rules, hand_.events, 3, active, "Hal", seats)
        return know.forgotten, know.folded_back

    assert forgotten(profile("standard")) == ({"Cat", "Dan"}, set())
    assert forgotten(with_toggle(profile("standard"), "reshuffle", "folded-first")) == (
        set(), {"Eve", "Fay", "Gus", "Hal"})


def test_the_wikipedia_profile_deals_the_folded_hands_first_for_2_to_7_players():
    rules = profile("wikipedia")
    assert (rules.reshuffle, rules.players) == ("folded-first", (2, 7))
    assert profile("standard").reshuffle == "discards" and profile("standard").recall == "forfeit"


# -- generated sessions with every variant ----------------------------------------------------

VARIANTS = [
    ("standard", ()),
    ("wikipedia", ()),
    ("basic", ("reshuffle=folded-first", "recall=penalty")),
    ("standard", ("recall=free", "declarations=simultaneous")),
    ("standard", ("reshuffle=folded-first", "declarations=simultaneous")),
    ("wikipedia", ("recall=penalty", "declarations=simultaneous")),
]


def _rules(name, toggles):
    rules = profile(name)
    for t in toggles:
        rules = with_toggle(rules, *t.split("="))
    return rules


@pytest.mark.parametrize("name, toggles", VARIANTS)
def test_generated_variant_sessions_audit_clean_and_find_exactly_what_was_injected(name, toggles):
    rules = _rules(name, toggles)
    text, injected = generate_text(300, players=(2, 8), seed=len(toggles) * 7 + len(name), rules=rules,
                                   forfeits=0.2)
    assert injected == []
    assert [f for _, h in audited(text) for f in h.findings] == []
    text, injected = generate_text(300, players=(2, 8), seed=len(name), rules=rules, violations=0.4,
                                   recalls=0.5, forfeits=0.2, throw_trumps=0.1)
    assert any(i.kind == "recall" for i in injected)
    assert "forfeits deal" in text and "Recall " in text
    want = collections.Counter((i.session, i.hand, i.trick, i.player, i.kind) for i in injected)
    got = collections.Counter((s, f.hand, f.trick, f.player, f.kind) for s, h in audited(text) for f in h.findings)
    assert got == want


# -- the store -------------------------------------------------------------------------------

def test_the_store_keeps_forfeits_and_counts_recalls(tmp_path):
    from .conftest import run_cli
    from .test_guide import out
    f = tmp_path / "r.bhh"
    f.write_text(SESSION.format(forfeits="Ann forfeits deal\nRecall Ben 9h 1\n", dealer="", lead="Ann")
                 + "\n" + hand(recall_ann="Recall Ann 3h\n").replace('[Seats "Ann Ben"]', '[Seats "Ann Ben"]'))
    db = tmp_path / "s.duckdb"
    run_cli("import", f, "--db", db)
    rows = out(run_cli("sql", "--db", db, "--format", "csv",
                       "SELECT player, cause FROM forfeits ORDER BY player, cause"))
    assert rows.split() == ["player,cause", "Ann,declared", "early", "Ann,recall", "Ben,recall"]
    stats = out(run_cli("stats", "--db", db, "--format", "csv", "--sort", "recalls"))
    head, *lines = stats.splitlines()
    cols = head.split(",")
    got = {row.split(",")[0]: (row.split(",")[cols.index("recalls")], row.split(",")[cols.index("deals_forfeited")])
           for row in lines}
    assert got["Ann"] == ("1", "2") and got["Ben"] == ("1", "1")
