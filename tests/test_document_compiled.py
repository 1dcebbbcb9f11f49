"""The compiled JSON of plain hands (``_document.plain``, report/_document.c) against the
Python it accelerates (``_dumps(hand_json(report))``), byte for byte: on every hand of
the corpora it writes the same text or leaves the hand to the Python code, and it
leaves every value it does not expect."""

from __future__ import annotations

import dataclasses
import random

import pytest

from booray_audit.generate import generate_text
from booray_audit.judge.audit import HandReport, audit
from booray_audit.report import document

from .conftest import CORPUS, ROOT
from .test_plain import RULES, _mutants
from .test_settle_compiled import SETTLING, items
from .typed import STYLES, as_typed

COMPILED = document.PLAIN_JSON
pytestmark = pytest.mark.skipif(COMPILED is None, reason="the compiled JSON is not built here")


def python(report) -> str:
    return document._dumps(document.hand_json(report))


def reports(text: str) -> list[HandReport]:
    return [x for x in audit(iter(items(text))) if isinstance(x, HandReport)]


def check(text: str) -> tuple[int, int]:
    """(hands it wrote, hands); fails where its text is not the Python code's."""
    taken = total = 0
    for report in reports(text):
        got = COMPILED(report)
        total += 1
        if got is not None:
            taken += 1
            assert got == python(report), (got, python(report))
    return taken, total


@pytest.mark.parametrize("rules", RULES + SETTLING, ids=lambda r: f"{r.profile}{r.overrides}")
def test_generated_hands_are_written_alike(rules):
    text, _ = generate_text(40, players=(2, 8), seed=5, rules=rules, violations=0.05, session_hands=9)
    taken, total = check(text)
    assert taken >= 0.8 * total, (taken, total)


def test_shipped_files_and_records_as_typed_are_written_alike():
    taken = total = 0
    for path in sorted((ROOT / "samples").glob("*.bhh")) + sorted(CORPUS.glob("*.bhh")):
        t, n = check(path.read_text())
        taken, total = taken + t, total + n
    assert taken > 2000, (taken, total)
    text, _ = generate_text(30, players=(2, 7), seed=9, violations=0.05, session_hands=6)
    for style in STYLES:
        check(as_typed(text, style, 3))
    for mutant in _mutants(text, random.Random(4), 40):
        check(mutant)


def a_plain_report() -> HandReport:
    text, _ = generate_text(3, players=(3, 3), seed=2)
    report = next(r for r in reports(text) if COMPILED(r) is not None and r.settlement.net)
    return report


NAMES = ['Ann "the Ace"', "back\\slash", "tab\there", "new\nline", "bell\x07", "nul\x00", "del\x7f",
         "Zoë", "Łukasz", "名前", "🂡 spades", "\u2028line", ""]


def renamed(report: HandReport, old: str, new: str) -> HandReport:
    """The report with one player's name changed wherever the JSON writes it."""
    rep, s = report.replay, report.settlement

    def names(xs):
        return [new if x == old else x for x in xs]

    def keyed(d):
        return None if d is None else {new if k == old else k: v for k, v in d.items()}
    rep = dataclasses.replace(rep, dealer=new if rep.dealer == old else rep.dealer, active=names(rep.active),
                              passed=names(rep.passed), tricks=keyed(rep.tricks))
    s = dataclasses.replace(s, winner=new if s.winner == old else s.winner, bourre=names(s.bourre),
                            penalties=keyed(s.penalties), net=keyed(s.net))
    return dataclasses.replace(report, replay=rep, settlement=s)


@pytest.mark.parametrize("name", NAMES)
def test_every_character_of_a_name_is_written_as_json_writes_it(name):
    report = a_plain_report()
    for old in report.replay.active:
        report = renamed(report, old, name + old)
    assert COMPILED(report) == python(report)


def test_values_it_does_not_expect_are_left_to_python():
    report = a_plain_report()
    s, rep = report.settlement, report.replay
    player = rep.active[0]
    odd = [dataclasses.replace(report, settlement=dataclasses.replace(s, pot=2 ** 70)),
           dataclasses.replace(report, settlement=dataclasses.replace(s, net={**s.net, player: True})),
           dataclasses.replace(report, settlement=dataclasses.replace(s, carry=1.5)),
           dataclasses.replace(report, replay=dataclasses.replace(rep, trump=7)),
           dataclasses.replace(report, replay=dataclasses.replace(rep, active=tuple(rep.active))),
           renamed(report, player, "lone \ud800 surrogate")]
    for r in odd:
        assert COMPILED(r) is None
    with_note = dataclasses.replace(report, hand=dataclasses.replace(report.hand, notes=("a note",)))
    assert COMPILED(with_note) is None
    assert "notes" in python(with_note)
    unfinished = dataclasses.replace(report, replay=dataclasses.replace(rep, complete=False))
    assert COMPILED(unfinished) == python(unfinished) and '"tricks": null' in python(unfinished)
