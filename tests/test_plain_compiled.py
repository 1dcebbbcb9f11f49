"""The compiled plain walk (``_search.walk_hand``, cinch/_walk.c) against the Python
plain walk it accelerates (judge/plain.py), hand by hand: on every hand the Replay must
be the same with the compiled walk and without it, and a hand the compiled walk takes
must be one the Python walk takes (a hand it leaves is walked in Python).  The corpora
are those test_plain.py holds the Python walk to the full replay with: the shipped
files, generated hands under every rule set it uses, records as people type them, and
hands with one line changed."""

from __future__ import annotations

import random

import pytest

from booray_audit.cinch.compiled import _search
from booray_audit.generate import generate_text
from booray_audit.judge import plain
from booray_audit.rules.profiles import profile, with_toggle

from .conftest import CORPUS, ROOT
from .test_plain import RULES, _mutants, tabled
from .typed import STYLES, as_typed, mistyped, slipped

pytestmark = pytest.mark.skipif(_search is None, reason="the compiled search is not built here")


def compare(text: str, monkeypatch) -> tuple[int, int]:
    """(hands the compiled walk took, hands the Python walk took); fails on any difference.
    The compiled walk runs first and the Python walk only on the hands it leaves: without
    it (``plain._search`` None), every hand takes the Python walk."""
    taken = python = 0
    walked: list = []
    compiled = plain._compiled

    def spy(*args):
        walked.append(compiled(*args))
        return walked[-1]
    monkeypatch.setattr(plain, "_compiled", spy)
    for it, table, judge in tabled(text):
        walked.clear()
        monkeypatch.setattr(plain, "_search", _search)
        fast = plain.plain_replay(it, table.rules, list(table.seats), table.dealer, judge)
        monkeypatch.setattr(plain, "_search", None)
        reference = plain.plain_replay(it, table.rules, list(table.seats), table.dealer, judge)
        assert fast == reference, (it.number, text[:300])
        took = bool(walked) and walked[0] is not None
        assert not took or fast is not None, it.number
        taken += took
        python += reference is not None
    return taken, python


@pytest.mark.parametrize("i", range(len(RULES)))
def test_generated_hands_walk_alike(i, monkeypatch):
    rules = RULES[i]
    taken = python = 0
    for players in ((2, 3), (4, 6), (7, 8)):
        text, _ = generate_text(60, players=players, seed=100 * i + players[0], rules=rules, violations=0.05)
        t, p = compare(text, monkeypatch)
        taken, python = taken + t, python + p
    if rules.cinch != "top-trumps":  # the top-trumps count is the Python walk's alone
        assert taken >= 0.9 * python, (taken, python)  # the compiled walk is the usual one
    else:
        assert taken == 0


def test_shipped_files_walk_alike(monkeypatch):
    taken = python = 0
    for path in sorted((ROOT / "samples").glob("*.bhh")) + sorted(CORPUS.glob("*.bhh")):
        t, p = compare(path.read_text(), monkeypatch)
        taken, python = taken + t, python + p
    assert taken > 2000 and taken >= 0.95 * python, (taken, python)


@pytest.mark.parametrize("rule", ["max-discard=2", "must-beat=previous", "must-beat=none", "must-trump=no",
                                  "trump-when-cannot-win=may", "must-overtrump=yes", "cinch-last=no",
                                  "lead-trump-when-others-void=yes", "cards=4", "reshuffle=folded-first",
                                  "max-discard=4,6:3@5", "ace-up-dealer-plays=yes", "lead=rotate"])
def test_hands_judged_under_other_rules_walk_alike(rule, monkeypatch):
    """Hands played under one set of rules and audited under another: many break a rule
    now, and the compiled walk must leave each of those to the Python one."""
    text, _ = generate_text(80, players=(3, 8), seed=11, rules=profile("basic"))
    text = text.replace('[Rules "basic"]', f'[Rules "basic"]\n[Rule "{rule}"]')
    assert f'[Rule "{rule}"]' in text
    compare(text, monkeypatch)


def test_four_card_hands_walk_alike(monkeypatch):
    rules = with_toggle(profile("standard"), "cards", "4")
    text, _ = generate_text(80, players=(2, 8), seed=4, rules=rules, violations=0.05)
    taken, python = compare(text, monkeypatch)
    assert taken >= 0.9 * python > 0


@pytest.mark.parametrize("style", STYLES)
def test_records_as_typed_walk_alike(style, monkeypatch):
    text, _ = generate_text(40, players=(3, 7), seed=7, rules=profile("standard"))
    compare(as_typed(text, style, 7), monkeypatch)
    compare(slipped(text, 7), monkeypatch)
    compare(mistyped(text, 7), monkeypatch)


def test_mutated_hands_walk_alike(monkeypatch):
    """Plain hands with one thing wrong: a card played twice or not held, a lead out of
    turn, a declaration or a deal gone or doubled."""
    rng = random.Random(6)
    for seed in range(8):
        text, _ = generate_text(1, players=(2, 8), seed=seed)
        for mutant in _mutants(text, rng, 60):
            compare(mutant, monkeypatch)


def test_a_cinch_broken_is_left_to_the_python_walk(monkeypatch):
    """Ann holds the three top trumps (a cinch) and leads a low one: a finding, which only
    the Python road gives; the compiled walk leaves the hand."""
    text = """[Seats "Ann Bob Cy"]
[Rules "standard"]

Hand 1
Dealer Cy
Deal Ann As Ks Qs 2s 3d
Deal Bob 2h 3h 4h 5h 6h
Deal Cy 2d 4d 5d 6d 7s
Up 7s
Ann play
Bob play
Cy play
Trick 1: Ann 2s, Bob 2h, Cy 7s
Trick 2: Cy 2d, Ann 3d, Bob 3h
Trick 3: Cy 4d, Ann As, Bob 4h
Trick 4: Ann Ks, Bob 5h, Cy 5d
Trick 5: Ann Qs, Bob 6h, Cy 6d
"""
    assert compare(text, monkeypatch) == (0, 0)
