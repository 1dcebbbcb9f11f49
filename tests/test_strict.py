"""The fast reader (strict.py) against the grammar: every hand it accepts must give
exactly the records Lark's parse gives; anything else it must hand to Lark."""

from __future__ import annotations

import io
import random

from booray_audit.notation import reader as notation
from booray_audit.notation import strict
from booray_audit.notation import syntax
from booray_audit.generate import generate_text

from .conftest import CORPUS, ROOT


def chunks(data: bytes):
    yield from notation._chunks(notation._lines(io.BytesIO(data), "t.bhh"))


def by_lark(body):
    """Lark's items for a chunk, or None when Lark refuses it."""
    if any(not isinstance(t, str) for _, t in body):
        return None
    try:
        return notation._renumber(syntax.parser().parse(notation._joined(body)), body)
    except Exception:
        return None


def same(fast, lark) -> bool:
    return lark is not None and [repr(x) for x in fast] == [repr(x) for x in lark] \
        and [getattr(x, "line", None) for x in fast] == [getattr(x, "line", None) for x in lark]


def check(data: bytes) -> tuple[int, int]:
    """(chunks the fast reader took, chunks in all); fails on any difference."""
    taken = total = 0
    for kind, start, body in chunks(data):
        total += 1
        fast = strict.items(body)
        if fast is None:
            continue
        taken += 1
        lark = by_lark(body)
        assert same(fast, lark), (body, fast, lark)
    return taken, total


FILES = sorted(CORPUS.glob("*.bhh")) + sorted((ROOT / "samples").glob("*.bhh"))


def test_the_fast_reader_reads_every_shipped_file_as_lark_does():
    taken = total = 0
    for path in FILES:
        t, n = check(path.read_bytes())
        taken, total = taken + t, total + n
    assert taken >= 0.8 * total, (taken, total)  # and it does take most of them


def test_generated_logs_are_read_alike_and_all_fast():
    for seed, players in ((1, (2, 2)), (2, (6, 6)), (3, (8, 8))):
        text, _ = generate_text(60, players=players, seed=seed, violations=0.05)
        taken, total = check(text.encode())
        hands = text.count("\nHand ")
        assert taken >= hands, (taken, hands)


WORDS = ["Hand", "hand 7", "Trick", "Tricks", "Net", "Dispute", "Deal", "Up", "Trump", "Seats", "Dealer",
         "Ante", "Pot", "pass", "play", "draw", "->", ",", ":", "Ann", "Ben", "Qs", "10h", "??", "?h", "T",
         "3", "-2", "+4", "0", "99999999999", "{note}", "#", '"Big Ben"', "all", "none", "renege", "s",
         "x", "  ", "", "[Event \"x\"]", "As", "ace", "J♦", '"a#b"]', "[Rule", '"limit=100"]', '\\"', "\t",
         # commas, colons and arrows written against a word
         "->Qc", "Qc->2d", "2d->", "->->", "Ann:", "1:Ann", ",Ben", "Qs,", ",", ",,", ":", "-",
         # carriage returns but at a line's end: the grammar reads them as no space
         "\r", "2d\r", "\rAnn", "\r\r"]


def mutated(seed: int, files: int, most_edits: int):
    """``files`` small shipped or generated files, each with 1 to ``most_edits`` of its
    lines changed: a word from WORDS put in, a word taken out or replaced by one of WORDS."""
    rng = random.Random(seed)
    bases = [p.read_text(encoding="utf-8") for p in FILES if p.stat().st_size < 20_000]
    bases.append(generate_text(20, players=(4, 6), seed=9)[0])
    for _ in range(files):
        lines = rng.choice(bases).split("\n")
        for _ in range(rng.randint(1, most_edits)):
            i = rng.randrange(len(lines))
            words = lines[i].split(" ")
            j = rng.randrange(len(words) + 1)
            action = rng.random()
            if action < 0.4:
                words.insert(j, rng.choice(WORDS))
            elif action < 0.7 and words:
                del words[min(j, len(words) - 1)]
            elif words:
                words[min(j, len(words) - 1)] = rng.choice(WORDS)
            lines[i] = " ".join(words)
        yield "\n".join(lines).encode("utf-8")


def test_mutated_lines_are_read_alike_or_left_to_lark():
    taken = 0
    for data in mutated(2026, 1200, 3):
        t, _ = check(data)
        taken += t
    assert taken > 400


# tag lines, and whether the fast reader takes them (else Lark reads them or reports them)
TAGS = [('[Event "Thursday game"]', True), ('  [ Rule\t"limit=100" ]  ', True), ('[Date"2026-01-01"]', True),
        ('[Seats "Ann Ben Cy"]', True), ('[Event ""]', True), ('[x-1_y "v"]', True),
        ('[Event "a # b"]', False), ('[Event "a {b}"]', False), ('[Event "say \\"hi\\""]', False),
        ('[Event "café"]', False), ('[Event "x"] # a comment', False), ('[Event "x"] {note}', False),
        ('[Event "x"', False), ('Event "x"]', False), ('[1Event "x"]', False), ('[Event x]', False),
        ('[Event "x"]]', False)]


def test_a_carriage_return_but_at_the_line_end_leaves_the_hand_to_lark():
    """Found by a longer run of the mutation fuzz: the fast reader read a lone `\r` inside a
    line as a space, where the grammar reads it as an error."""
    hand = "Hand 1\r\nDealer Cal\r\nDeal Ann 2h 3h 4h 5h 6h%s\r\n"
    assert strict.items([(1, "Hand 1\r\n"), (2, "Dealer Cal\r\n")]) is not None  # \r\n ends: taken
    for stray in (" \r", "\r", " \r 7h"):
        body = [(n, text + "\n") for n, text in enumerate((hand % stray).split("\n")[:-1], 1)]
        assert strict.items(body) is None, stray
    assert strict.items([(1, "Hand 1\n"), (2, "\rDealer Cal\n")]) is None
    assert strict.items([(1, "Hand 1\n"), (2, "Dealer Cal\r")]) is None  # a last line's lone \r: Lark's
    assert strict.items([(1, "Hand 1\n"), (2, "\r ")]) is None


def test_tag_lines_are_read_alike_and_plain_ones_fast():
    for line, plain in TAGS:
        for end in ("\n", "\r\n", ""):
            taken, _ = check(f"{line}{end}".encode())
            assert taken == plain, (line, taken)


def test_a_file_reads_the_same_with_and_without_the_fast_reader(monkeypatch):
    for path in [p for p in FILES if p.stat().st_size < 100_000]:  # the online log: chunk by chunk above
        fast = list(notation.read(str(path)))
        monkeypatch.setattr(notation, "FAST", False)
        slow = list(notation.read(str(path)))
        monkeypatch.setattr(notation, "FAST", True)
        assert [repr(x) for x in fast] == [repr(x) for x in slow], path
