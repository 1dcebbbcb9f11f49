"""The compiled settlement of plain hands (``_settle.plain``, judge/_settle.c) against the
Python settlement it accelerates (``SessionAudit.settle`` and ``Chain.settle``), hand by
hand: every item the audit yields must be the same with it and without it, each hand's
settlement, findings, rulings and the chain's state after it included.  It takes only
hands whose settlement has nothing to say but the numbers, and leaves the rest (a claim
the settlement contradicts, a name in doubt, an amount past 2^50, house rules it does
not know) to the Python code with the chain as it was."""

from __future__ import annotations

import random

import pytest

from booray_audit.generate import generate_text
from booray_audit.judge import audit as audit_module
from booray_audit.judge.audit import HandReport, audit
from booray_audit.notation import reader as notation
from booray_audit.rules.profiles import profile, with_toggle

from .conftest import CORPUS, ROOT
from .test_plain import RULES, _mutants
from .typed import STYLES, as_typed, mistyped, slipped

COMPILED = audit_module.PLAIN_SETTLE
pytestmark = pytest.mark.skipif(COMPILED is None, reason="the compiled settlement is not built here")


def items(text: str, path: str = "x.bhh"):
    import io
    reader = notation.Reader(path)
    return list(reader.read(io.BytesIO(text.encode())))


def seen(item) -> str:
    """Everything an audit item says, the chain's state after a hand included."""
    if isinstance(item, HandReport):
        return repr((item.session, item.settlement, item.findings, item.rulings, item.state, item.hand.number))
    return repr(item)


def compare(text: str, monkeypatch) -> tuple[int, int]:
    """(hands the compiled settlement took, hands settled); fails on any difference."""
    taken = [0]

    def spy(*args):
        s = COMPILED(*args)
        taken[0] += s is not None
        return s
    read = items(text)
    monkeypatch.setattr(audit_module, "PLAIN_SETTLE", spy)
    fast = [seen(x) for x in audit(iter(read))]
    monkeypatch.setattr(audit_module, "PLAIN_SETTLE", None)
    reference = [seen(x) for x in audit(iter(read))]
    assert len(fast) == len(reference)
    for a, b in zip(fast, reference):
        assert a == b, (a, b, text[:400])
    return taken[0], sum(x.startswith("(") for x in reference)


SETTLING = [profile("standard"), profile("wikipedia"), profile("basic"),
            with_toggle(profile("standard"), "limit", "5"),
            with_toggle(with_toggle(profile("standard"), "limit", "3"), "limit-caps-win", "yes"),
            with_toggle(profile("standard"), "ante", "7"),
            with_toggle(profile("standard"), "renege-penalty", "none"),
            with_toggle(profile("standard"), "renege-forfeits", "no"),
            with_toggle(profile("standard"), "recall", "penalty")]
LEFT = [with_toggle(profile("standard"), "double-ante", "yes"), with_toggle(profile("standard"), "settle", "continue")]


@pytest.mark.parametrize("i", range(len(SETTLING)))
def test_generated_hands_settle_alike(i, monkeypatch):
    taken = settled = 0
    for players, session in (((2, 3), 40), ((4, 6), 7), ((7, 8), 3)):
        text, _ = generate_text(60, players=players, seed=10 * i + players[0], rules=SETTLING[i], violations=0.05,
                                session_hands=session)
        t, n = compare(text, monkeypatch)
        taken, settled = taken + t, settled + n
    assert taken >= 0.8 * settled, (taken, settled)  # the compiled settlement is the usual one


@pytest.mark.parametrize("rules", LEFT, ids=["double-ante", "settle-continue"])
def test_house_rules_it_does_not_know_are_left_to_python(rules, monkeypatch):
    text, _ = generate_text(60, players=(3, 6), seed=4, rules=rules, violations=0.05)
    taken, settled = compare(text, monkeypatch)
    assert taken == 0 and settled > 0


def test_shipped_files_settle_alike(monkeypatch):
    taken = settled = 0
    for path in sorted((ROOT / "samples").glob("*.bhh")) + sorted(CORPUS.glob("*.bhh")):
        t, n = compare(path.read_text(), monkeypatch)
        taken, settled = taken + t, settled + n
    assert taken > 2000, (taken, settled)


@pytest.mark.parametrize("rules", RULES[:3], ids=["standard", "wikipedia", "basic"])
def test_records_as_typed_and_mutated_settle_alike(rules, monkeypatch):
    text, _ = generate_text(30, players=(2, 7), seed=9, rules=rules, violations=0.05, session_hands=6)
    for style in STYLES:
        compare(as_typed(text, style, 3), monkeypatch)
    compare(slipped(text, 3), monkeypatch)
    compare(mistyped(text, 3), monkeypatch)
    rng = random.Random(2)
    for mutant in _mutants(text, rng, 40):
        compare(mutant, monkeypatch)


def night(hands: int = 3, seed: int = 1) -> str:
    """A clean 2-player session (with seed 1, Carol and Ivan), each hand ending with its
    `Tricks` and `Net` lines."""
    text, _ = generate_text(hands, players=(2, 2), seed=seed, session_hands=hands)
    return text


def with_claims(text: str, hand: int, claims: str) -> str:
    """Hand ``hand``'s `Tricks` and `Net` lines replaced by ``claims``."""
    parts = text.split("\nHand ")
    body = [line for line in parts[hand].splitlines() if not line.startswith(("Tricks ", "Net "))]
    parts[hand] = "\n".join(body + ([claims] if claims else [])) + "\n"
    return "\nHand ".join(parts)


@pytest.mark.parametrize("claims, takes", [
    ("Tricks Carol 2 Ivan 3\nNet Carol -1 Ivan +1", True),  # as the table said it, rightly
    ("", True),
    ("Tricks Carol 3 Ivan 2", False),                        # a wrong trick count
    ("Net Carol +1 Ivan -1", False),                         # a wrong settlement
    ("Net Ivan +1", False),                                  # Carol seated, named nowhere
    ("Tricks Carol 2 Zed 4\nNet Carol -1 Ivan +1", False),  # a name not seated: a record error
    ("Pot 2", True),                                         # the first hand's pot: the starting fact
    ("Ante all", True),
    ("Ante none", False),
    ("Ante Ivan", False),                                    # Carol anted too
    ("Ante Zed", False),                                     # likewise
    ("Dispute Carol renege 2", False),
    ("Recall Ivan Ah 1", False),
])
def test_a_hands_claims_are_checked_or_left(claims, takes, monkeypatch):
    text = with_claims(night(1), 1, claims)
    assert compare(text, monkeypatch) == (int(takes), 1), claims


def test_the_chain_across_hands_gaps_and_restarts_settles_alike(monkeypatch):
    text = night(9, seed=3)
    for old, new in ((9, 11), (8, 10), (7, 9), (6, 7), (5, 6), (4, 5)):  # gaps before hands 4 and 7
        text = text.replace(f"\nHand {old}\n", f"\nHand {new}\n")
    text = with_claims(text, 5, "Pot 9")      # the pot after the gap: the starting fact again
    text = with_claims(text, 6, "Pot 99")     # a wrong pot
    text = with_claims(text, 7, "Pot 2")      # after the second gap
    taken, settled = compare(text, monkeypatch)
    assert settled == 9 and 4 <= taken < 9, taken


def test_amounts_past_its_range_are_left_to_python(monkeypatch):
    text = night(2).replace('[Ante "1"]', f'[Ante "1"]\n[Pot "{2 ** 55}"]')
    assert compare(text, monkeypatch) == (0, 2)
    text = night(3).replace('[Ante "1"]', f'[Ante "1"]\n[Pot "{2 ** 50 - 1}"]')  # past 2^50 with the antes
    taken, settled = compare(text, monkeypatch)
    assert settled == 3 and taken < 3, taken


def test_a_hand_it_leaves_finds_the_chain_as_it_was():
    """Left after reading the chain (a wrong `Net` is found last): the Python code settles
    the hand from the chain as the hand before left it."""
    from booray_audit.judge.audit import SessionAudit
    read = items(with_claims(night(2), 2, "Net Carol +5 Ivan -5"))
    sa = SessionAudit(read[0], None)
    sa.hand(read[1])
    before = sa.chain.state()
    table = sa.table(read[2])
    rep = audit_module.replay_hand(read[2], table)
    assert not rep.findings
    assert COMPILED(read[2].events, read[2].number, rep, table.rules, table.seats, sa.chain) is None
    assert sa.chain.state() == before
    assert COMPILED(read[2].events[:-1], read[2].number, rep, table.rules, table.seats, sa.chain) is not None
    assert sa.chain.state() != before
