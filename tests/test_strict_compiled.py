"""The compiled fast reader (``_strict.items``, notation/_strict.c) against the Python one
it accelerates (``strict.items``, itself held to Lark by test_strict.py): the same items,
lines and columns included, or None from both, for every chunk of every shipped file,
of generated logs, of randomly mutated lines and of random text."""

from __future__ import annotations

import io
import random
from dataclasses import dataclass

import pytest

from booray_audit import record as r
from booray_audit.generate import generate_text
from booray_audit.notation import reader, strict
from booray_audit.notation.reader import NOT_UTF8, TOO_LONG

from .test_parts import noisy
from .typed import STYLES, as_typed
from .test_strict import FILES, TAGS, chunks, mutated

pytestmark = pytest.mark.skipif(strict.COMPILED is None, reason="the compiled reader is not built here")


def alike(body) -> bool:
    """Both readers give the chunk the same answer; True when they took it."""
    python, compiled = strict.items(body), strict.COMPILED(body)
    assert (python is None) == (compiled is None), (body, python, compiled)
    if python is not None:
        assert [repr(x) for x in python] == [repr(x) for x in compiled], (body, python, compiled)
    return python is not None


def check(data: bytes) -> tuple[int, int]:
    taken = total = 0
    for _, _, body in chunks(data):
        total += 1
        taken += alike(body)
    return taken, total


def test_every_shipped_file_is_read_alike():
    taken = total = 0
    for path in FILES:
        t, n = check(path.read_bytes())
        taken, total = taken + t, total + n
    assert taken >= 0.8 * total, (taken, total)


def test_generated_logs_are_read_alike():
    for seed, players in ((1, (2, 2)), (2, (6, 6)), (3, (8, 8)), (4, (2, 8))):
        text, _ = generate_text(60, players=players, seed=seed, violations=0.05)
        taken, total = check(text.encode())
        assert taken >= text.count("\nHand ")


def test_mutated_lines_are_read_alike():
    taken = sum(check(data)[0] for data in mutated(2027, 3000, 4))
    assert taken > 1000


# the characters a line of the plain subset is made of, and some it must not have
ALPHABET = "AKQJT1098765432?shdcSHDC ,:->+#\t\r\n\"{}[]\\_.'é\x00\x0b♦" + "abcdefghijklmnopqrstuvwxyz"


def test_random_lines_are_read_alike():
    rng = random.Random(7)
    heads = ["Hand", "Trick", "Tricks", "Net", "Deal", "Up", "Trump", "Seats", "Dealer", "Ante", "Pot",
             "Dispute", "Recall", "Ann", "Ben", "[Event", "[", "hand", "TRICK", "ann"]
    for _ in range(20_000):
        head = rng.choice(heads)
        tail = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 30)))
        line = head + rng.choice(["", " ", "  ", "\t"]) + tail + rng.choice(["\n", "\r\n", ""])
        alike([(rng.randint(1, 10**6), line)])
        alike([(1, "Hand 3\n"), (2, line), (3, "Ann pass\n")])


def test_numbers_names_and_lines_at_their_limits_are_read_alike():
    for line in ["Net Ann +" + "9" * 30, "Net Ann -" + "9" * 31, "Net Ann 0" * 3, "Tricks Ann 999999999",
                 "Tricks Ann 1000000000", "Pot 000000001", "Hand 2147483647", "Hand 9999999999",
                 "Trick 12: Ann As, Ben 2h", "Trick 12 : Ann : As 2h , 3h", "Trick Ann: As,, 2h", "Trick 1:",
                 "Ann play 3 -> 3", "Ann play -> 2", "Ann play 2h 3h ->", "Ann draw", "Ann play", "Ann PASS",
                 "Ann pass 2", "Ann forfeits deal", "Ann Forfeits DEAL", "Dispute Ann renege 3",
                 "Dispute Ann cinch-lead", "Dispute Ann -x", "Dispute Ann pass", "Recall Ann 10h 2",
                 "Ante all", "Ante NONE", "Ante Ann Ben", "Seats A-1 B.c D'e", "Seats As Ks", "Trump H",
                 "Trump ♦", "Up ??", "Deal Ann ?s ?h 10C tD", "x " * 60_000, "Ann play " + "2h " * 50_000,
                 "Seats " + "Ann," * 40_000]:
        for end in ("\n", "\r\n", ""):
            alike([(5, line + end)])


def test_tag_lines_and_unreadable_lines_are_read_alike():
    for line, _ in TAGS:
        for end in ("\n", "\r\n", ""):
            alike([(1, line + end)])
    for bad in (NOT_UTF8, TOO_LONG):
        assert strict.COMPILED([(1, "Hand 1\n"), (2, bad)]) is None
        alike([(1, "Hand 1\n"), (2, bad)])


RECORDS = (r.TagChange, r.Seats, r.Dealer, r.Ante, r.PotClaim, r.Deal, r.Up, r.Trump, r.Trick, r.TricksClaim,
           r.NetClaim, r.Dispute, r.Recall, r.Forfeit, r.Decision)
PLAIN = [(1, "Hand 3\n"), (2, '[Ante "2"]\n'), (3, "Seats Ann Ben\n"), (4, "Dealer Ben\n"), (5, "Ante all\n"),
         (6, "Pot 4\n"), (7, "Deal Ann As Ks Qs Js 10s\n"), (8, "Up 2h\n"), (9, "Trump h\n"),
         (10, "Ann play 1 -> 2c\n"), (11, "Ben pass\n"), (12, "Trick 1: Ann As, Ben 2s\n"), (13, "Trick Ann: As, 2s\n"),
         (14, "Tricks Ann 5\n"), (15, "Net Ann +4, Ben -2\n"), (16, "Dispute Ben renege 2\n"),
         (17, "Recall Ann Ks 2\n"), (18, "Ben forfeits deal\n"), (19, "Ann draw 2h -> 3\n")]


def test_every_record_is_made_by_filling_its_slots():
    """The compiled reader makes each record without its __init__ (``layout`` in _strict.c):
    every record class is laid out for it, and what it makes equals __init__'s records."""
    assert strict.COMPILED.__self__.direct() == (True,) * len(RECORDS)
    got = strict.COMPILED(PLAIN)
    assert {type(x) for x in got} >= set(RECORDS)
    assert alike(PLAIN)
    assert [hash(x) for x in got] == [hash(x) for x in strict.items(PLAIN)]


def test_a_record_class_not_laid_out_so_is_called():
    """A class the slots cannot be filled for (here one with __post_init__) is called."""
    @dataclass(frozen=True, slots=True)
    class Seated(r.Event):
        players: tuple[str, ...]

        def __post_init__(self):
            object.__setattr__(self, "players", tuple(reversed(self.players)))

    compiled = strict.COMPILED.__self__
    try:
        compiled.setup(*(Seated if c is r.Seats else c for c in RECORDS), r.Hand)
        assert compiled.direct() == tuple(c is not r.Seats for c in RECORDS)
        got = strict.COMPILED([(1, "Hand 1\n"), (2, "Seats Ann Ben\n")])
        assert type(got[1]) is Seated and got[1].players == ("Ben", "Ann") and got[1].line == 2
    finally:
        compiled.setup(*RECORDS, r.Hand)
    assert compiled.direct() == (True,) * len(RECORDS)


def chunked_alike(data: bytes, first: int = 1, readline=None) -> int:
    """The compiled chunker (``_strict.Chunks``) and the Python one (``reader._chunks`` over
    ``reader._lines``) cut the bytes into the same chunks, lines, texts and unreadable
    lines included; the number of chunks."""
    python = list(reader._chunks(reader._lines(io.BytesIO(data), "x.bhh", first), first))
    stream = io.BytesIO(data)
    compiled = list(strict.CHUNKS((readline or (lambda f: f.readline))(stream), first, reader._kind,
                                  reader.TOO_LONG, reader.NOT_UTF8, reader.TOO_MANY, reader.MAX_LINE,
                                  reader.MAX_HAND_LINES))
    assert python == compiled, (data[:200], python[:3], compiled[:3])
    return len(python)


def test_every_shipped_file_and_noisy_night_is_cut_alike():
    for path in FILES:
        assert chunked_alike(path.read_bytes()) > 0
    for seed in range(6):
        chunked_alike(noisy(seed))
        chunked_alike(noisy(seed, too_long=False), first=17)
    assert reader.chunks(io.BytesIO(b"Hand 1\n"), "x").__class__ is strict.CHUNKS


# lines the compiled chunker tells apart itself (blank, a comment, a tag, a line starting
# with h), and the ones it leaves to reader._kind: every way `Hand` can be followed
HAND_LIKE = [b"Hand", b"hand\n", b"HAND 7\n", b"hAnD\t8\n", b"Hand\r\n", b"Hand-1\n", b"Hand.\n", b"Hand'\n",
             b"Handy pass\n", b"Hand_\n", b"Hand9\n", b"Hand:\n", b"Hand#\n", b"Hand{x}\n", b"H\xc3\xa4nd 1\n",
             b"Hand\xc3\xa9\n", b"Hand\xc2\xa0\n", b"Hand\xe2\x80\x99s\n", b"ha\n", b"han", b"hanD 3\n",
             b"Hank play\n", b"h\xd0\xb0nd 1\n", b"\r\n", b"\r", b"\n", b"#\n", b"[\n", b"Hand\x0b\n"]


def test_the_lines_told_apart_in_c_are_those_reader_kind_tells_so():
    """Each line alone and after a hand: the compiled chunker's kinds are _kind's."""
    for line in HAND_LIKE:
        chunked_alike(line)
        chunked_alike(b"Hand 1\nAnn pass\n" + line + b"\n[Pot \"1\"]\nHand 2\n")


def test_lines_at_the_limits_are_cut_alike(monkeypatch):
    """Small limits for both (a line of more than 40 bytes, more than 5 lines in a chunk):
    every way a line can end, be too long, carry a BOM or not be UTF-8."""
    monkeypatch.setattr(reader, "MAX_LINE", 40)
    monkeypatch.setattr(reader, "MAX_HAND_LINES", 5)
    rng = random.Random(3)
    pieces = [b"Hand 1\n", b"Hand\n", b"hand 2\r\n", b"  Hand 3 # x\n", b"[Event \"x\"]\n", b"  [Ante \"1\"]\n",
              b"\n", b"   \n", b"# note\n", b"\r\n", b"Ann pass\n", b"Deal Ann As Ks\n", b"x" * 40 + b"\n",
              b"y" * 41 + b"\n", b"z" * 39, b"w" * 90 + b"\n", b"\xef\xbb\xbfHand 4\n", b"\xff\xfe bad\n",
              b"\xc3\n", b"caf\xc3\xa9\n", b"h\n", b"H", b"\t\n", b"{ a note }\n", b"\xe2\x80\xa8Hand 5\n",
              *HAND_LIKE]
    for _ in range(3000):
        data = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        if rng.random() < 0.2:
            data = b"\xef\xbb\xbf" + data
        chunked_alike(data, first=rng.choice([1, 1, 2, 100]))


def test_a_part_read_up_to_its_end_is_cut_alike():
    """A part of a file (judge.parallel._Part) reads lines up to its end, not past it."""
    from booray_audit.judge.parallel import _Part
    data = noisy(3)
    for end in (0, 1, 500, len(data) // 2, len(data)):
        expected = list(reader._chunks(reader._lines(_Part(io.BytesIO(data), end), "x.bhh", 1), 1))
        got = list(strict.CHUNKS(_Part(io.BytesIO(data), end).readline, 1, reader._kind, reader.TOO_LONG,
                                 reader.NOT_UTF8, reader.TOO_MANY, reader.MAX_LINE, reader.MAX_HAND_LINES))
        assert got == expected, end


def hands_alike(data: bytes, seats=("Ann", "Ben")) -> tuple[int, int]:
    """The compiled ``_strict.hand`` and ``Reader._hand_python`` make each hand chunk's Hand
    and seats alike (lines, numbers given and not written included), or the compiled one
    leaves it: (hands it made, hands)."""
    rd = reader.Reader("x.bhh")
    made = total = 0
    for kind, start, body in reader._chunks(reader._lines(io.BytesIO(data), "x.bhh"), 1):
        items, problems = rd._parse(start, body) if kind == "hand" else ([], [1])
        if problems or not items or not isinstance(items[0], tuple):
            continue
        _, number, line = items[0]
        python = rd._hand_python(number or 1, line, items[1:], seats)
        compiled = strict.HAND(number or 1, line, items[1:], seats)
        total += 1
        if compiled is not None:
            made += 1
            assert python[2] is None and repr(compiled) == repr(python[:2]), (compiled, python)
    return made, total


def test_hands_are_made_alike():
    made = total = 0
    text, _ = generate_text(80, players=(2, 8), seed=6, violations=0.05)
    datas = [path.read_bytes() for path in FILES] + [text.encode()] + [
        as_typed(text, style, 4).encode() for style in STYLES] + list(mutated(2028, 300, 4))
    for data in datas:
        for seats in ((), ("Ann", "Ben")):
            m, t = hands_alike(data, seats)
            made, total = made + m, total + t
    assert made >= 0.8 * total, (made, total)
    # left to Python: an annotation, a `Seats` tag inside the hand, a seat-order trick
    for lines in (["Ann pass { a note }\n"], ['[Seats "Ann Ben"]\n'], ["Trick Ann: As, 2s\n"]):
        body = [(1, "Hand 1\n")] + [(i + 2, t) for i, t in enumerate(lines)]
        items, problems = reader.Reader("x")._parse(1, body)
        assert not problems
        assert strict.HAND(1, 1, items[1:], ("Ann", "Ben")) is None
