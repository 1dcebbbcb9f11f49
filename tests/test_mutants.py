"""A seeded mutator over real records, run through the commands in process: no traceback,
a documented exit code, valid JSON, the same answer with --jobs 2, `fmt` output that
reads back to the same records, and bounded memory when a file grows a run of blank
lines or a huge line.  Bounded in time (it stops early and says how far it got)."""

from __future__ import annotations

import contextlib
import re
import io
import json
import random
import sys
import time

import pytest

from booray_audit.cli import main as cli
from booray_audit.notation import reader as notation

from .conftest import CORPUS, ROOT

BASES = sorted(CORPUS.glob("*.bhh")) + [ROOT / "samples" / "partial-from-memory.bhh"]
NOISE = ["[", "]", "{", "}", '"', "#", "?", "??", "->", ":", ",", "♠", "10", "Trick", "Hand", "pass",
         "play", "[bold]", "[/]", "\\", "-", "+", "0", "99999999999", "9" * 50, "\t", " ", "\r"]


def mutate(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(lines))
        op = rng.randrange(8)
        line = lines[i]
        if op == 0 and line:
            j = rng.randrange(len(line))
            lines[i] = line[:j] + line[j + 1:]
        elif op == 1:
            j = rng.randrange(len(line) + 1)
            lines[i] = line[:j] + rng.choice(NOISE).encode() + line[j:]
        elif op == 2:
            lines.insert(i, line)
        elif op == 3 and len(lines) > 1:
            k = rng.randrange(len(lines))
            lines[i], lines[k] = lines[k], lines[i]
        elif op == 4:
            del lines[i]
            if not lines:
                lines = [b""]
        elif op == 5:
            lines.insert(i, rng.choice([b'[Rule "max-discard=7:3:1"]', b'[Rules "nope"]', b'[Ante "x"]',
                                        b'[Event "[/]"]', b"Dispute Ann reneged 1", b"Dispute Zed renege",
                                        b"\xff\xfe", b"Seats Ann Bob", b"Tricks Ann 9"]))
        elif op == 6:
            lines = lines[:rng.randrange(1, len(lines) + 1)]
        else:
            words = line.split(b" ")
            j = rng.randrange(len(words))
            words[j] = rng.choice([b"1h", b"Xs", b"-3", b"bea", b"4294967296", b"?x", b"Ks"])
            lines[i] = b" ".join(words)
    return b"\n".join(lines)


def enlarge(data: bytes, rng: random.Random) -> bytes:
    """A run of blank or comment lines, or a line past the reader's limit, somewhere."""
    lines = data.split(b"\n")
    i = rng.randrange(len(lines) + 1)
    lines[i:i] = [rng.choice([b"\n" * 300_000, b"# note\n" * 50_000, b"Trick Ann 2s, " * 40_000])]
    return b"\n".join(lines)


def peak_of(*args) -> tuple[tuple[int, str, str], int]:
    """A command run in process, and the peak of Python memory while it ran."""
    import tracemalloc
    tracemalloc.start()
    try:
        return run(*args), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def run(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    argv = sys.argv
    sys.argv = ["booray-audit", *map(str, args)]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                cli.main()
                code = 0
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else 0
    finally:
        sys.argv = argv
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("seed", range(4))
def test_mutated_records_never_crash_and_agree_across_commands(seed, tmp_path):
    rng = random.Random(seed)
    deadline = time.monotonic() + 25
    done = 0
    while done < 300 and (done < 60 or time.monotonic() < deadline):  # 60 files at least, however slow
        base = rng.choice(BASES)
        f = tmp_path / f"m{done}.bhh"
        data = mutate(base.read_bytes(), rng)
        large = done % 25 == 1 or rng.random() < 0.03
        if large:
            data = enlarge(data, rng)
        f.write_bytes(data)
        if large:  # memory is bounded by the largest hand, not by the file
            (code, out, err), peak = peak_of("check", "--format", "json", f)
            assert peak < 40_000_000, peak
        else:
            code, out, err = run("check", "--format", "json", f)
        assert code in (0, 1, 2, 3), err
        json.loads(out)  # valid JSON whatever the input
        text_code, _, _ = run("check", "--quiet", f)
        assert text_code == code
        fmt_code, canon, _ = run("fmt", f)
        assert fmt_code in (0, 2)
        if fmt_code == 0:  # the round trip holds for every record the reader accepts
            sessions, problems = notation.read_text(canon)
            assert problems == [], (f.read_bytes(), problems)
            original, _ = notation.collect(notation.read(str(f)))
            assert sessions == original
        if done % 20 == 0 or large:
            two = run("check", "--format", "json", "--jobs", "2", f)
            assert (two[0], two[1]) == (code, out)
            assert run("replay", f, "--hand", "1")[0] in (0, 1, 2, 3)
            # 4: a mutant that is mostly the hands of one stored before is an edit of it
            assert run("import", f, "--db", tmp_path / "s.duckdb", "--quiet")[0] in (0, 1, 2, 3, 4)
        done += 1


# Lines the store cannot hold as they are written (numbers past its columns, control
# characters, carriage returns in quoted text): each costs its own hand, the same in `check`
# and `import`, and never the file.
SHAPES = [b"Trick 2147483648: Ann As, Ben Ks", b"Hand 2147483648", b"Hand", b"Dispute Ann renege 99999999999",
          b'[Event "x\r"]', b'"A\x1bB" pass', b'[Event "\x1b]0;title\x07"]', b"Tricks Ann 4294967296 Ben 0",
          b"Net Ann +" + b"9" * 45, b"Ann play { note \r }", b'"Ann\rB" play', b"Trick 3: \"\x9b2J\" As",
          b"Pot " + b"9" * 39]


def _hands_checked(out: str) -> int:
    return sum(len(s["hands"]) for s in json.loads(out)["sessions"])


def test_lines_the_store_cannot_hold_cost_their_hand_alike_in_check_and_import(tmp_path):
    rng = random.Random(48)
    for i in range(40):
        lines = mutate(rng.choice(BASES).read_bytes(), rng).split(b"\n")
        for _ in range(rng.randint(1, 3)):
            lines.insert(rng.randrange(len(lines) + 1), rng.choice(SHAPES))
        f = tmp_path / f"s{i}.bhh"
        f.write_bytes(b"\n".join(lines))
        code, out, err = run("check", "--format", "json", f)
        assert code in (0, 1, 2, 3), err
        db = tmp_path / f"s{i}.duckdb"
        icode, iout, ierr = run("import", f, "--db", db)
        assert icode in (0, 1, 2, 3) and "rolled back" not in ierr, ierr
        if code == 3:
            continue  # a usage error (a tag naming no profile): nothing to compare
        stored = int(re.search(r"(\d[\d,]*) hands?, ", iout).group(1).replace(",", "")) if "hand" in iout else 0
        assert stored == _hands_checked(out), (f.read_bytes()[:300], iout, ierr)
