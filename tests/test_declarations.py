"""Declarations shown at once (`declarations=simultaneous`, the English and Swedish texts'
variation): the order of the `pass`/`play` lines is no fact, so it raises no `out-of-turn`
and says nothing of the seats; the draw still goes from the dealer's left."""

from __future__ import annotations

import pytest

from booray_audit.generate import generate_text
from booray_audit.rules.profiles import profile, with_toggle

from .conftest import reports
from .test_generated import audited

# Carol deals; the lines are typed Carol, Bob, Ann: in turn, Ann (dealer's left) comes first
TYPED = """[Seats "Ann Bob Carol"]

Hand 1
Dealer Carol
Up 2d
Carol play
Bob play 1
Ann play
Trick 1: Ann As, Bob 3s, Carol 4s
Trick 2: Ann Ad, Bob 3d, Carol 2d
Trick 3: Ann Kc, Bob 5c, Carol 6c
Trick 4: Ann 6h, Bob 5h, Carol 4h
Trick 5: Ann 7h, Bob 8h, Carol 9h
"""
AT_ONCE = '[Rule "declarations=simultaneous"]\n' + TYPED


def errors(text):
    [h] = reports(text)
    return [(f.kind, f.player) for f in h.findings if f.cls == "record"]


def test_declarations_in_turn_typed_out_of_order_are_out_of_turn():
    assert errors(TYPED) == [("out-of-turn", "Bob"), ("out-of-turn", "Ann")]


def test_declarations_shown_at_once_have_no_order_to_break():
    assert errors(AT_ONCE) == []
    [h] = reports(AT_ONCE)
    assert h.settlement.net == {"Ann": 2, "Bob": -4, "Carol": -4}  # Ann took every trick


@pytest.mark.parametrize("seats", [True, False])
def test_without_seats_the_dealer_declaring_first_is_no_error_at_once(seats):
    text = TYPED if seats else TYPED.replace('[Seats "Ann Bob Carol"]\n\n', "")
    assert errors(text)  # in turn: out of turn either way
    assert errors('[Rule "declarations=simultaneous"]\n' + text) == []


def test_the_session_names_the_toggle_it_ran_under():
    import io

    from booray_audit.judge.audit import SessionStart, audit
    from booray_audit.notation import reader as notation
    [start] = [i for i in audit(notation.read(io.BytesIO(AT_ONCE.encode()), "t")) if isinstance(i, SessionStart)]
    assert start.rules.declarations == "simultaneous"
    assert ("declarations", "simultaneous") in start.rules.overrides


def test_generated_games_declared_at_once_audit_clean_and_show_exactly_the_injected():
    rules = with_toggle(profile("standard"), "declarations", "simultaneous")
    text, injected = generate_text(300, players=(3, 8), seed=71, rules=rules, violations=0.3)
    assert "declarations=simultaneous" in text
    hands = list(audited(text))
    assert len(hands) == 300
    want = {(i.session, i.hand, i.trick, i.player, i.kind) for i in injected}
    got = {(s, f.hand, f.trick, f.player, f.kind) for s, h in hands for f in h.findings if f.cls == "play"}
    assert len(want) > 30 and got == want
    assert [f for _, h in hands for f in h.findings if f.cls != "play"] == []
    # the lines were shuffled: in turn, the same records would raise out-of-turn errors
    in_turn = text.replace('[Rule "declarations=simultaneous"]\n', "")
    assert any(f.kind == "out-of-turn" for _, h in audited(in_turn) for f in h.findings)
