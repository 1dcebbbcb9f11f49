"""Property tests on generated sessions: legal games audit clean, injected
violations are found exactly, and chips are conserved at every hand."""

from __future__ import annotations

import io

import pytest

from booray_audit.notation import reader as notation
from booray_audit.judge.audit import HandReport, SessionStart, audit
from booray_audit.generate import generate_text
from booray_audit.rules.profiles import profile, with_toggle
from booray_audit.notation.writer import write


def audited(text, readable=True):
    """(session, hand report) of every hand; ``readable``: no line may fail to read (a slip
    may make a hand unreadable: a seat-order trick whose players cannot be told)."""
    session = -1
    for item in audit(notation.read(io.BytesIO(text.encode()), "generated")):
        if isinstance(item, SessionStart):
            session += 1
        elif isinstance(item, HandReport):
            yield session, item
        elif readable:
            assert not hasattr(item, "message"), item  # no syntax problems


# 10 x 300 = 3,000 hands, 2 to 8 players, under each profile (`generate` and `check`
# run longer ones by hand)
@pytest.mark.parametrize("chunk", range(10))
def test_generated_legal_hands_audit_clean(chunk):
    rules = profile(("standard", "wikipedia", "basic")[chunk % 3])
    players = ((2, 4), (4, 6), (6, 8), (2, 8), (3, 5))[chunk % 5]
    text, injected = generate_text(300, players=players, seed=chunk, rules=rules)
    assert injected == []
    hands = list(audited(text))
    assert len(hands) == 300
    bad = [f for _, h in hands for f in h.findings]
    assert bad == [], bad[:3]


# each house toggle that changes what may be played or what counts as a cinch; with
# must-trump=no the bots under-trumped (the engine let them) and the audit, for which a
# trump played must still over-trump, found 167 breaches in these 200 hands
TOGGLED = [("must-trump", "no"), ("must-beat", "previous"), ("must-beat", "none"), ("trump-when-cannot-win", "may"),
           ("must-overtrump", "no"), ("cinch-last", "no"), ("lead-trump-when-others-void", "yes"), ("cards", "4"),
           ("cinch", "top-trumps")]


@pytest.mark.parametrize("i", range(len(TOGGLED)))
def test_generated_legal_hands_under_each_house_toggle_audit_clean(i):
    rules = with_toggle(profile("standard"), *TOGGLED[i])
    text, injected = generate_text(200, players=(3, 7), seed=60 + i, rules=rules)
    assert injected == []
    bad = [f for _, h in audited(text) for f in h.findings]
    assert bad == [], bad[:3]


@pytest.mark.parametrize("seed,players,name", [(101, (2, 5), "standard"), (102, (4, 8), "standard"),
                                               (103, (3, 6), "wikipedia"), (104, (2, 6), "basic")])
def test_injected_violations_are_found_exactly(seed, players, name):
    text, injected = generate_text(400, players=players, seed=seed, violations=0.4, rules=profile(name))
    assert len(injected) > 50
    want = {(i.session, i.hand, i.trick, i.player, i.kind) for i in injected}
    hands = list(audited(text))
    got = {(s, f.hand, f.trick, f.player, f.kind) for s, h in hands for f in h.findings
           if f.cls == "play"}
    assert got == want
    # nothing else: no record or claim findings either
    assert all(f.cls == "play" for _, h in hands for f in h.findings)


@pytest.mark.parametrize("seed", range(3))
def test_chips_are_conserved_and_the_ledger_sums_the_nets(seed):
    text, _ = generate_text(200, players=(2, 8), seed=seed, violations=0.2)
    ledger: dict = {}
    carry = {}
    for session, h in audited(text):
        s = h.settlement
        assert s.net is not None
        before = carry.get(session, 0)
        assert sum(s.net.values()) + s.carry - before == 0
        carry[session] = s.carry
        book = ledger.setdefault(session, {})
        for p, n in s.net.items():
            book[p] = book.get(p, 0) + n
    ends = [i for i in audit(notation.read(io.BytesIO(text.encode()), "g")) if type(i).__name__ == "SessionEnd"]
    for end in ends:
        assert {p: n for p, n in end.ledger.items()} == ledger[end.index]
        assert end.pot == carry[end.index]


def test_generated_records_round_trip():
    text, _ = generate_text(200, players=(2, 8), seed=5, violations=0.2)
    sessions, problems = notation.read_text(text)
    assert problems == []
    again, _ = notation.read_text(write(sessions))
    assert again == sessions


def test_the_online_log_sample_holds_exactly_its_listed_violations():
    """samples/online-log.bhh came from `generate` (seed 2026, 2-8 players, standard with
    limit=25, rate 0.02); its answers file lists the injected violations.  The audit must
    find exactly those: when the bots' cinch judgment changes, regenerate both.  Its JSON
    document follows the shipped schema (the other samples' are checked in test_guide)."""
    import json
    from pathlib import Path

    import jsonschema

    from booray_audit.report.document import JsonDocument
    root = Path(__file__).parent.parent
    samples = root / "samples"
    want = sorted((a["session"] - 1, a["hand"], a["trick"], a["player"], a["kind"])  # numbered from 1
                  for a in map(json.loads, (samples / "online-log.answers.ndjson").read_text().splitlines()))
    items = list(audit(notation.read(str(samples / "online-log.bhh"))))
    got = sorted((h.session, f.hand, f.trick, f.player, f.kind)
                 for h in items if isinstance(h, HandReport) for f in h.findings)
    assert len(want) == 42 and got == want
    doc = JsonDocument()
    doc.start_file("samples/online-log.bhh")
    for item in items:
        doc.add(item)
    schema = json.loads((root / "docs" / "check.schema.json").read_text())
    jsonschema.validate(json.loads(json.dumps(doc.value())), schema)


# -- records written the ways people write them (tests/typed.py) -------------------------


from .typed import HIDES_DISCARDS, STYLES, as_typed, slipped  # noqa: E402

FOUR_CARD = with_toggle(profile("standard"), "cards", "4")


@pytest.mark.parametrize("style", STYLES)
def test_records_as_people_type_them_audit_clean_when_legal(style):
    """Draws as counts, no Seats, no Deal lines, seat-order tricks, suit-only cards: a legal
    game written any of these ways (reshuffles and the 4-card game included) is clean."""
    for seed, players, rules in ((1, (6, 8), profile("standard")), (2, (2, 5), FOUR_CARD)):
        text, _ = generate_text(100, players=players, seed=seed, rules=rules,
                                known_discards=style not in HIDES_DISCARDS)
        typed = as_typed(text, style, seed)
        hands = list(audited(typed))
        assert len(hands) == 100
        bad = [(f.hand, f.kind, f.player, f.message) for _, h in hands for f in h.findings]
        assert bad == [], bad[:3]


@pytest.mark.parametrize("style", STYLES)
def test_records_as_people_type_them_show_exactly_the_injected_violations(style):
    for seed, players, rules in ((11, (5, 8), profile("standard")), (12, (2, 6), FOUR_CARD)):
        text, injected = generate_text(100, players=players, seed=seed, violations=0.6, rules=rules,
                                       known_discards=style not in HIDES_DISCARDS)
        want = {(i.session, i.hand, i.trick, i.player, i.kind) for i in injected}
        got = {(s, f.hand, f.trick, f.player, f.kind) for s, h in audited(as_typed(text, style, seed))
               for f in h.findings if f.cls == "play"}
        assert got == want
        assert len(want) > 25


def test_the_generator_deals_reshuffles():
    """Big tables run out of stock: the records hold draws past the stock."""
    text, _ = generate_text(100, players=(8, 8), seed=3)
    hands = text.split("\nHand ")[1:]
    drawn = [sum(len(m.split("->")[1].split()) for m in h.splitlines() if "->" in m) for h in hands]
    assert sum(1 for d in drawn if d > 12) > 10  # 8 players x 5 cards leave a stock of 12


@pytest.mark.parametrize("seed", range(8))
def test_records_with_slips_accuse_nobody(seed):
    """Legal games written with cards, names and tricks left out or blurred: no play is
    proven wrong, and no claim the table made (every one right) is called wrong."""
    rules = profile(("standard", "wikipedia", "basic")[seed % 3])
    text, _ = generate_text(60, players=((2, 4), (4, 6), (6, 8))[seed % 3], seed=500 + seed, rules=rules)
    typed = slipped(text, seed)
    reports = [h for _, h in audited(typed, readable=False)]
    assert len(reports) > 30
    bad = [(h.replay.number, f.kind, f.player, f.message) for h in reports for f in h.findings
           if f.cls in ("play", "claim")]
    assert bad == [], bad[:3]

