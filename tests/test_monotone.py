"""Information monotonicity: a record that says less never accuses more.  Each way people
forget (tests/typed.py ``FORGETTING``), applied to legal and to violating generated
sessions (2-8 players, the 4- and 5-card game, reshuffles, every profile): every play
finding of the forgetful record is a finding of the full one.  bench/monotone.py runs
the same check at any size."""

from __future__ import annotations

import pytest

from booray_audit.generate import generate_text
from booray_audit.rules.profiles import profile, with_toggle

from .test_generated import audited
from .typed import FORGETTING, forgotten

CASES = [  # (seed, players, rules, violation rate)
    (1, (2, 4), profile("standard"), 0.0),
    (2, (6, 8), profile("standard"), 0.5),
    (3, (3, 6), profile("wikipedia"), 0.5),
    (4, (4, 7), with_toggle(profile("standard"), "cards", "4"), 0.5),
    (5, (2, 5), profile("basic"), 0.5),
]


def play_findings(text: str) -> set[tuple]:
    return {(s, f.hand, f.trick, f.player, f.kind) for s, h in audited(text, readable=False)
            for f in h.findings if f.cls == "play"}


def more_accused(text: str, injected, how: str, seed: int) -> set[tuple]:
    """The play findings the record with ``how`` forgotten makes that the full one does not."""
    spare: dict = {}
    for i in injected:
        spare.setdefault((i.session, i.hand), set()).add(i.player)
    return play_findings(forgotten(text, how, seed, spare)) - play_findings(text)


@pytest.mark.parametrize("how", FORGETTING)
def test_a_record_that_says_less_accuses_no_one_more(how):
    for seed, players, rules, rate in CASES:
        text, injected = generate_text(40, players=players, seed=seed, rules=rules, violations=rate,
                                throw_trumps=0.3)
        assert more_accused(text, injected, how, seed) == set(), (how, seed)


def test_the_forgetting_forgets():
    """Each transform changes the record (a check that cannot fail proves nothing)."""
    text, _ = generate_text(20, players=(3, 5), seed=9)
    for how in FORGETTING:
        assert forgotten(text, how, 9) != text, how
