"""The fast replay of plain records (plain.py) against the full replay: every hand it
takes must give the Replay HandReplay gives (its evidence and knowledge aside), after
judging the cinch at the same plays on the same positions; any hand with a finding or
an undecidable check it must leave to the full replay."""

from __future__ import annotations

import io
import random
from dataclasses import fields

import pytest

from booray_audit.notation import reader as notation
from booray_audit import record as r
from booray_audit.judge.audit import SessionAudit, audit
from booray_audit.cinch.judge import cinch_judge
from booray_audit.cinch.position import position
from booray_audit.generate import generate_text
from booray_audit.judge.plain import plain_replay
from booray_audit.judge.replay import HandReplay
from booray_audit.rules.profiles import profile, with_toggle

from .conftest import CORPUS, ROOT
from .typed import STYLES, as_typed, mistyped, slipped


def read(text: str):
    return notation.read(io.BytesIO(text.encode()), "t.bhh")


def tabled(text: str):
    """Each hand of the text, with the table it is replayed under and the cinch hook."""
    sa = None
    for it in read(text):
        if isinstance(it, r.Session):
            sa = SessionAudit(it, None)
        if isinstance(it, r.Hand):
            table = sa.table(it)
            yield it, table, cinch_judge(table.rules, sa.cinch_nodes)


def compare(text: str) -> tuple[int, int]:
    """(hands the fast replay took, clean hands in all); fails on any difference."""
    taken = clean = 0
    for it, table, judge in tabled(text):
        asked: list = []

        def hook(know, p, t, won, prior):
            asked.append((p, t, won, tuple(prior), position(know, p, t, prior)))
            return judge(know, p, t, won, prior)

        seats = list(table.seats)
        full = HandReplay(it, table.rules, seats, table.dealer, judge and hook).run()
        by_full, asked[:] = sorted(asked, key=repr), []
        fast = plain_replay(it, table.rules, seats, table.dealer, judge and hook)
        clean += not full.findings and not full.undecidable
        if fast is None:
            continue
        taken += 1
        for f in fields(full):
            if f.name not in ("kept", "know"):
                assert getattr(fast, f.name) == getattr(full, f.name), (f.name, it.number, text[:300])
        assert sorted(asked, key=repr) == by_full, it.number
    return taken, clean


RULES = [profile("standard"), profile("wikipedia"), profile("basic"),
         with_toggle(profile("standard"), "must-beat", "previous"),
         with_toggle(profile("standard"), "trump-when-cannot-win", "may"),
         with_toggle(profile("standard"), "cinch", "top-trumps"),
         with_toggle(profile("standard"), "cinch-last", "no"),
         with_toggle(profile("standard"), "lead-trump-when-others-void", "yes"),
         with_toggle(profile("basic"), "must-overtrump", "yes"),
         with_toggle(profile("standard"), "cinch", "off")]


@pytest.mark.parametrize("i", range(len(RULES)))
def test_generated_hands_replay_alike(i):
    rules = RULES[i]
    taken = clean = 0
    for players in ((2, 3), (4, 6), (7, 8)):
        text, _ = generate_text(60, players=players, seed=100 * i + players[0], rules=rules, violations=0.05)
        t, c = compare(text)
        taken, clean = taken + t, clean + c
    assert taken >= 0.7 * clean, (taken, clean)  # the plain path is the usual one for such logs


def test_shipped_files_replay_alike():
    taken = 0
    for path in sorted((ROOT / "samples").glob("*.bhh")) + sorted(CORPUS.glob("*.bhh")):
        taken += compare(path.read_text())[0]
    assert taken > 2000


@pytest.mark.parametrize("rule", ["max-discard=2", "must-beat=previous", "must-beat=none", "must-trump=no",
                                  "trump-when-cannot-win=may", "ace-up-dealer-plays=yes", "cinch=top-trumps"])
def test_hands_judged_under_other_rules_replay_alike(rule):
    """Hands played under one set of rules, audited under another (a `Rule` tag added): many
    break a rule now (more discards than allowed, a duty to beat they did not keep), and
    the fast replay must leave each of those to the full one."""
    text, _ = generate_text(80, players=(3, 8), seed=11, rules=profile("basic"))
    text = text.replace('[Rules "basic"]', f'[Rules "basic"]\n[Rule "{rule}"]')
    assert f'[Rule "{rule}"]' in text
    compare(text)


@pytest.mark.parametrize("style", STYLES)
def test_records_as_typed_replay_alike(style):
    text, _ = generate_text(40, players=(3, 7), seed=7, rules=profile("standard"))
    compare(as_typed(text, style, 7))
    compare(slipped(text, 7))
    compare(mistyped(text, 7))


def _mutants(text: str, rng: random.Random, count: int):
    """The text with one line of a hand changed: dropped, doubled, swapped with the next,
    or a card or a name in it replaced by another of the file's."""
    lines = text.splitlines()
    cards = sorted({w for line in lines for w in line.replace(",", " ").split()
                    if len(w) == 2 and w[0] in "23456789TJQKA" and w[1] in "shdc"})
    names = sorted({line.split()[1] for line in lines if line.startswith("Deal ")})
    body = [i for i, line in enumerate(lines) if line and not line.startswith(("[", "Hand "))]
    for _ in range(count):
        out = list(lines)
        i = rng.choice(body)
        how = rng.randrange(5)
        if how == 0:
            del out[i]
        elif how == 1:
            out.insert(i, out[i])
        elif how == 2 and i + 1 < len(out):
            out[i], out[i + 1] = out[i + 1], out[i]
        else:
            words = out[i].split(" ")
            pool = cards if how == 3 else names
            spots = [k for k, w in enumerate(words) if w.rstrip(",:") in pool]
            if spots:
                k = rng.choice(spots)
                words[k] = rng.choice(pool) + words[k][len(words[k].rstrip(",:")):]
                out[i] = " ".join(words)
        yield "\n".join(out) + "\n"


def test_mutated_hands_replay_alike():
    """Plain hands with one thing wrong (a card played twice or not held, a lead out of
    turn, a declaration or deal gone or doubled): the fast replay gives what the full one
    gives, or leaves the hand to it."""
    rng = random.Random(5)
    for seed in range(6):
        text, _ = generate_text(1, players=(3, 6), seed=seed)
        for mutant in _mutants(text, rng, 60):
            compare(mutant)


def test_replay_keeps_the_evidence_of_plain_hands():
    """`replay` shows why each play was legal: its hands take the full replay."""
    text, _ = generate_text(3, players=(4, 4), seed=3)
    reports = [x for x in audit(read(text), explain=True) if hasattr(x, "replay")]
    assert reports and all(x.replay.know is not None and x.replay.kept for x in reports)
    fast = [x for x in audit(read(text)) if hasattr(x, "replay")]
    assert any(x.replay.know is None for x in fast)


THREE = """[Seats "Ann Bob Cy"]
[Rules "standard"]

Hand 1
Dealer Cy
Deal Ann As Ks Qs Js Ts
Deal Bob 2h 3h 4h 5h 6h
Deal Cy 2d 3d 4d 5d {up}
Up {up}
Ann play
Bob play
Cy pass
Trick 1: Ann As, Bob 2h
Trick 2: Ann Ks, Bob 3h
Trick 3: Ann Qs, Bob 4h
Trick 4: Ann Js, Bob 5h
Trick 5: Ann Ts, Bob 6h
"""


def one(text: str):
    """The hand's full replay and the fast one (None: left to the full one)."""
    [session, hand] = list(read(text))
    sa = SessionAudit(session, None)
    table = sa.table(hand)
    judge = cinch_judge(table.rules, sa.cinch_nodes)
    full = HandReplay(hand, table.rules, list(table.seats), table.dealer, judge).run()
    return full, plain_replay(hand, table.rules, list(table.seats), table.dealer, judge)


def test_a_plain_hand_takes_the_fast_replay():
    full, fast = one(THREE.format(up="2c"))
    assert fast is not None and not full.findings and compare(THREE.format(up="2c")) == (1, 1)
    assert fast.tricks == {"Ann": 5, "Bob": 0} and fast.passed == ["Cy"]


def test_a_dealer_passing_with_an_ace_up_takes_the_full_replay():
    full, fast = one(THREE.format(up="Ac"))
    assert [f.kind for f in full.findings] == ["dealer-passed"] and fast is None


def test_a_card_drawn_from_another_hand_takes_the_full_replay():
    """Bob draws the Ts Ann kept and plays it on her As; Ann plays it again at trick 5:
    each play is of a card its player holds, but no reshuffle can bring a kept card back."""
    text = (THREE.format(up="2c").replace("Bob play\n", "Bob play 2h -> Ts\n")
            .replace("Trick 1: Ann As, Bob 2h", "Trick 1: Ann As, Bob Ts"))
    full, fast = one(text)
    assert "duplicate-card" in [f.kind for f in full.findings] and fast is None


def test_a_claim_naming_someone_not_seated_takes_the_full_replay():
    full, fast = one(THREE.format(up="2c") + "Tricks Ann 5 Bobby 0\n")
    assert [f.kind for f in full.findings] == ["unknown-player"] and fast is None


def test_a_disputed_hand_is_ruled_with_the_evidence_of_the_full_replay():
    text = THREE.format(up="2c") + "Dispute Bob renege 2\n"
    assert one(text)[1] is None
    [report] = [x for x in audit(read(text)) if hasattr(x, "replay")]
    [ruling] = report.rulings
    assert ruling.ruling == "rejected" and "Bob held no spade" in ruling.evidence, ruling


def test_a_second_round_of_draws_takes_the_full_replay():
    text = (THREE.format(up="2c").replace("Bob play\n", "Bob play\nBob draw 2h -> 7h\n")
            .replace("Trick 1: Ann As, Bob 2h", "Trick 1: Ann As, Bob 7h"))
    full, fast = one(text)
    assert fast is None and not full.findings and compare(text) == (0, 1)


def test_a_player_who_passed_yet_plays_takes_the_full_replay():
    full, fast = one(THREE.format(up="2c").replace("Bob play\n", "Bob pass\n"))
    assert "out-of-turn" in [f.kind for f in full.findings] and fast is None


def test_a_pass_the_tables_count_contradicts_takes_the_full_replay():
    """The table's `Tricks` line gives Cy, who passed, a trick: who played is in doubt."""
    full, fast = one(THREE.format(up="2c") + "Tricks Ann 4 Cy 1\n")
    assert "out-of-turn" in [f.kind for f in full.findings] and fast is None
