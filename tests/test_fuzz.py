"""Fuzzing: any bytes, and real records with random edits, are read and audited
without an exception escaping (only ``SyntaxProblem`` values come back)."""

from __future__ import annotations

import io

from hypothesis import HealthCheck, given, settings, strategies as st

from booray_audit.notation import reader as notation
from booray_audit.judge.audit import audit
from booray_audit.record import SyntaxProblem
from booray_audit.notation.writer import write

from .conftest import CORPUS

SEEDS = [p.read_bytes() for p in sorted(CORPUS.glob("*.bhh"))]
WORDS = [b"Hand", b"Trick", b"Deal", b"Up", b"Trump", b"pass", b"play", b"->", b"??", b"?h", b"10h",
         b"As", b"Net", b"+4", b"Tricks", b"Dispute", b"renege", b"[Rule \"cinch=off\"]", b"\n",
         b"Ann", b"Dealer", b"Pot", b"Ante all", b"{ note }", b"# c", b",", b":", b"\"Big Al\"", b"Seats"]

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def run(data: bytes):
    items = list(audit(notation.read(io.BytesIO(data), "fuzz.bhh")))
    for it in items:
        if isinstance(it, SyntaxProblem):
            assert it.line >= 1 and it.column >= 1 and it.message
    return items


@FUZZ
@given(st.binary(max_size=400))
def test_random_bytes(data):
    run(data)


@FUZZ
@given(st.sampled_from(SEEDS), st.lists(st.tuples(st.integers(0, 4000), st.integers(0, 30),
                                                   st.sampled_from(WORDS)), max_size=6))
def test_records_with_random_edits(seed, edits):
    data = bytearray(seed)
    for at, cut, word in edits:
        at = at % (len(data) + 1)
        data[at:at + cut % 8] = word + b" "
    run(bytes(data))


@FUZZ
@given(st.sampled_from(SEEDS), st.lists(st.integers(0, 200), max_size=4))
def test_records_with_lines_dropped(seed, drops):
    lines = seed.split(b"\n")
    for d in drops:
        if lines:
            del lines[d % len(lines)]
    data = b"\n".join(lines)
    run(data)
    # whatever parsed writes and reads back the same
    sessions, _ = notation.collect(notation.read(io.BytesIO(data), "fuzz.bhh"))
    again, problems = notation.read_text(write(sessions))
    assert problems == []
    assert [h for s in again for h in s.hands] == [h for s in sessions for h in s.hands]
